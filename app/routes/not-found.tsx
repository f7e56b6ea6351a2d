import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFoundMessage } from "~/features/layout/not-found-message";
import { pageMeta } from "~/features/seo/meta";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(matches, {
    title: "Page not found",
    description: "La página que buscas no existe o se ha movido.",
    path: location.pathname,
    noIndex: true,
  });

export default function NotFound() {
  return <NotFoundMessage />;
}
