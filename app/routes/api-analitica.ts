import type { Route } from "./+types/api-analitica";
import { recordBeacon } from "~/features/analytics/analytics.server";
import { getConfig } from "~/platform/config.server";

export async function action({ request, context }: Route.ActionArgs) {
  return recordBeacon(request, context.clientAddress, new URL(getConfig().siteUrl).hostname);
}

export function loader() {
  return new Response("Método no permitido.", { status: 405, headers: { Allow: "POST" } });
}
