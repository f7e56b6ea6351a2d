import type { Route } from "./+types/api-altcha-challenge";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { humanCheckEnabled, newChallenge } from "~/platform/human-check/human-check.server";
import { visitorKey } from "~/platform/security/client-address.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";

const WINDOW_MS = 10 * 60_000;

/**
 * A fresh signed challenge for the human check of the forms. Each one costs a key derivation,
 * so an address gets as many as the account forms allow it attempts.
 */
export async function loader({ context }: Route.LoaderArgs) {
  if (!humanCheckEnabled()) return new Response("Not Found", { status: 404 });
  const limit = await hitRateLimit(
    getDb(),
    `altcha-challenge:ip:${visitorKey(context.clientAddress)}`,
    {
      limit: getConfig().authAddressRateLimit,
      windowMs: WINDOW_MS,
    },
  );
  if (!limit.allowed)
    return new Response("Demasiados intentos", {
      status: 429,
      headers: { "Retry-After": String(limit.retryAfterSeconds), "Cache-Control": "no-store" },
    });
  return Response.json(await newChallenge(), { headers: { "Cache-Control": "no-store" } });
}
