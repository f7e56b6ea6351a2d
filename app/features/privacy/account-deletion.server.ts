import type { Viewer } from "~/features/accounts/session.server";
import { signOutHeaders } from "~/features/accounts/session.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { deleteAccountData } from "./account-data.server";
import { accountDataMessages, DELETE_CONFIRMATION } from "./account-data-messages";

const SETTINGS = "/mi-cuenta#configuracion";

function backToSettings(message: "confirmationMismatch" | "deleteFailed") {
  return redirectWithToast(SETTINGS, { kind: "error", ...accountDataMessages[message] });
}

async function readConfirmation(request: Request): Promise<string | null> {
  try {
    return String((await request.formData()).get("confirmation") ?? "");
  } catch {
    return null;
  }
}

/** GDPR erasure, confirmed by typing ELIMINAR; the server checks the word too. */
export async function deleteAccountOnRequest(request: Request, viewer: Viewer) {
  if ((await readConfirmation(request)) !== DELETE_CONFIRMATION)
    return backToSettings("confirmationMismatch");
  try {
    await deleteAccountData(viewer);
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
