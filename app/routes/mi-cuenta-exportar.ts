import type { Route } from "./+types/mi-cuenta-exportar";
import { requireCustomer } from "~/features/identity/session.server";
import { accountExportResponse } from "~/features/privacy/account-export.server";

export async function loader({ request }: Route.LoaderArgs) {
  return accountExportResponse(await requireCustomer(request));
}
