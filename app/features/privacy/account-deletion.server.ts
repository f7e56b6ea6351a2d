import { authApiError, getAuth } from "~/features/identity/auth.server";
import type { Viewer } from "~/features/identity/session.server";
import { signOutHeaders } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import { deleteAccountData } from "./account-data.server";
import { accountDataMessages, DELETE_CONFIRMATION } from "./account-data-messages";

const SETTINGS = "/mi-cuenta?tab=configuracion";

/** Password checks per customer: enough for a few typos, far too few to guess one. */
const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 15 * 60_000 };

type Refusal = Exclude<keyof typeof accountDataMessages, "exported" | "exportFailed" | "deleted">;

function backToSettings(message: Refusal, headers?: HeadersInit) {
  return redirectWithToast(
    SETTINGS,
    { kind: "error", ...accountDataMessages[message] },
    { headers },
  );
}

async function readForm(request: Request): Promise<{ confirmation: string; password: string }> {
  try {
    const form = await request.formData();
    return {
      confirmation: String(form.get("confirmation") ?? ""),
      password: String(form.get("password") ?? ""),
    };
  } catch {
    return { confirmation: "", password: "" };
  }
}

/** Whether `password` is the signed-in customer's current one, as Better Auth checks it. */
async function passwordMatches(request: Request, password: string): Promise<boolean> {
  try {
    await (await getAuth()).api.verifyPassword({ body: { password }, headers: request.headers });
    return true;
  } catch (error) {
    // A wrong or over-long password, or a session that ended meanwhile.
    if (await authApiError(error)) return false;
    throw error;
  }
}

/**
 * GDPR erasure, confirmed by typing ELIMINAR and the current password (so a signed-in browser
 * left unattended is not enough); the server checks both, and limits the password attempts.
 */
export async function deleteAccountOnRequest(
  { request, clientAddress }: { request: Request; clientAddress: string },
  viewer: Viewer,
) {
  const { confirmation, password } = await readForm(request);
  if (confirmation !== DELETE_CONFIRMATION) return backToSettings("confirmationMismatch");
  if (password === "") return backToSettings("passwordRequired");
  const limit = await hitRateLimit(getDb(), `delete-account:user:${viewer.id}`, PASSWORD_ATTEMPTS);
  if (!limit.allowed)
    return backToSettings("tooManyAttempts", { "Retry-After": String(limit.retryAfterSeconds) });
  try {
    if (!(await passwordMatches(request, password))) return backToSettings("wrongPassword");
    const deleted = await deleteAccountData(viewer, {
      clientAddress,
      userAgent: request.headers.get("User-Agent"),
    });
    if (!deleted.ok) return backToSettings(deleted.reason);
  } catch (error) {
    getLogger().error({ err: error }, "deleting an account failed");
    return backToSettings("deleteFailed");
  }
  getLogger().info({ userId: viewer.id }, "account deleted at the customer's request");
  // The sessions went with the user; this clears the browser's cookie.
  return redirectWithToast(
    "/",
    { kind: "success", ...accountDataMessages.deleted },
    { headers: await signOutHeaders(request) },
  );
}

/** The deletion has no page of its own: it lives in Mi Cuenta's settings. */
export const accountSettingsPath = SETTINGS;
