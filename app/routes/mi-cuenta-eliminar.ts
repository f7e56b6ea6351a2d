import { redirect } from "react-router";
import type { Route } from "./+types/mi-cuenta-eliminar";
import { requireCustomer } from "~/features/identity/session.server";
import {
  accountSettingsPath,
  deleteAccountOnRequest,
} from "~/features/privacy/account-deletion.server";

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireCustomer(request);
  return deleteAccountOnRequest({ request, clientAddress: context.clientAddress }, viewer);
}

export function loader() {
  return redirect(accountSettingsPath);
}
