import { getConfig } from "~/platform/config.server";

/** RFC 9116 asks for an Expires under a year away: always six months from the request. */
const VALID_FOR_MS = 183 * 24 * 60 * 60_000;

/** /.well-known/security.txt (RFC 9116): where to report a vulnerability (README, 'Security model'). */
export function loader() {
  const { siteUrl, company } = getConfig();
  const expires = new Date(Date.now() + VALID_FOR_MS);
  expires.setUTCHours(0, 0, 0, 0);
  const body = [
    `Contact: mailto:${company.contactEmail}`,
    `Expires: ${expires.toISOString()}`,
    "Preferred-Languages: es, en",
    `Canonical: ${siteUrl}/.well-known/security.txt`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
