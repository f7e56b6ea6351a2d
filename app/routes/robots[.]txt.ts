import { getConfig } from "~/platform/config.server";

/** Private areas stay out of search results; everything public is listed in the sitemap. */
// /test-pagos is not listed: a list here would advertise a test page (production answers 404).
const privatePaths = ["/admin", "/mi-cuenta", "/perfil", "/pago-exitoso", "/dev/"];

export function loader() {
  const body = [
    "User-agent: *",
    "Allow: /",
    ...privatePaths.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${getConfig().siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
