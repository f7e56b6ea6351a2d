import type { Viewer } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import { exportAccountData, exportFileName } from "./account-data.server";

/** Enough for every real need; an export reads all of a customer's rows. */
const EXPORTS_PER_HOUR = { limit: 10, windowMs: 60 * 60_000 };

/** GDPR access and portability: the customer's data as a JSON download, a few times an hour. */
export async function accountExportResponse(viewer: Viewer): Promise<Response> {
  const limit = await hitRateLimit(getDb(), `export:user:${viewer.id}`, EXPORTS_PER_HOUR);
  if (!limit.allowed)
    return new Response("Demasiados intentos", {
      status: 429,
      headers: { "Retry-After": String(limit.retryAfterSeconds) },
    });
  const now = new Date();
  return new Response(JSON.stringify(await exportAccountData(viewer, now), null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(now)}"`,
      "Cache-Control": "no-store",
    },
  });
}
