import { humanCheckEnabled, newChallenge } from "~/platform/human-check/human-check.server";

/** A fresh signed challenge for the human check of the forms. */
export async function loader() {
  if (!humanCheckEnabled()) return new Response("Not Found", { status: 404 });
  return Response.json(await newChallenge(), { headers: { "Cache-Control": "no-store" } });
}
