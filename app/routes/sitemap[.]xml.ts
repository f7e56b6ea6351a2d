import { publicPaths } from "~/features/seo/public-paths";
import { getConfig } from "~/platform/config.server";

export function loader() {
  const { siteUrl } = getConfig();
  const urls = publicPaths()
    .map((path) => `  <url><loc>${siteUrl}${path}</loc></url>`)
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
