import { redirect } from "react-router";
import type { Route } from "./+types/mi-cuenta-eliminar";
import { requireCustomer, signOutHeaders } from "~/features/accounts/session.server";
import { deleteAccountData } from "~/features/privacy/account-data.server";
import { accountDataMessages, DELETE_CONFIRMATION } from "~/features/privacy/account-data-messages";
import { flashHeader } from "~/platform/http/flash.server";
import { getLogger } from "~/platform/logger.server";

async function backToAccount(message: keyof typeof accountDataMessages) {
  const headers = new Headers({
    "Set-Cookie": await flashHeader({ kind: "error", ...accountDataMessages[message] }),
  });
  return redirect("/mi-cuenta#configuracion", { headers });
}

/** GDPR erasure, confirmed by typing ELIMINAR; the server checks the word too. */
export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireCustomer(request);
  let confirmation: string;
  try {
    confirmation = String((await request.formData()).get("confirmation") ?? "");
  } catch {
    return backToAccount("confirmationMismatch");
  }
  if (confirmation !== DELETE_CONFIRMATION) return backToAccount("confirmationMismatch");
  try {
    await deleteAccountData(viewer);
  } catch (error) {
    getLogger().error({ err: error }, "deleting an account failed");
    return backToAccount("deleteFailed");
  }
  getLogger().info({ userId: viewer.id }, "account deleted at the customer's request");
  // The sessions went with the user; this clears the browser's cookie.
  const headers = await signOutHeaders(request);
  headers.append(
    "Set-Cookie",
    await flashHeader({ kind: "success", ...accountDataMessages.deleted }),
  );
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/mi-cuenta#configuracion");
}
