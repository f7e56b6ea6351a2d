import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFoundMessage } from "~/features/layout/not-found-message";
import { privatePageMeta } from "~/features/seo/meta";
import { lightPageHandle } from "~/platform/http/light-page";

export const handle = lightPageHandle;

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, location }) =>
  privatePageMeta(matches, {
    title: "Page not found",
    description: "La página que buscas no existe o se ha movido.",
    path: location.pathname,
  });

export default function NotFound() {
  return <NotFoundMessage />;
}
