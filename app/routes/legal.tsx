import type { Route } from "./+types/legal";
import { legalDocumentFor } from "~/features/legal/documents.server";
import { LegalPage } from "~/features/legal/legal-page";
import { pageMeta } from "~/features/seo/meta";
import { lightPageHandle } from "~/platform/http/light-page";

export const handle = lightPageHandle;

export function loader({ request }: Route.LoaderArgs) {
  const document = legalDocumentFor(new URL(request.url).pathname.slice(1));
  if (!document) throw new Response("Not Found", { status: 404 });
  return { document };
}

export const meta: Route.MetaFunction = ({ matches, loaderData, location }) =>
  loaderData
    ? pageMeta(matches, {
        title: loaderData.document.title,
        description: loaderData.document.description,
        path: location.pathname,
      })
    : [];

export default function Legal({ loaderData }: Route.ComponentProps) {
  return <LegalPage document={loaderData.document} />;
}
