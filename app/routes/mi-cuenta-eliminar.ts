import { redirect } from "react-router";
import type { Route } from "./+types/mi-cuenta-eliminar";
import { requireCustomer } from "~/features/identity/session.server";
import {
  accountSettingsPath,
  deleteAccountOnRequest,
} from "~/features/privacy/account-deletion.server";

export async function action({ request }: Route.ActionArgs) {
  return deleteAccountOnRequest(request, await requireCustomer(request));
}

export function loader() {
  return redirect(accountSettingsPath);
}
