import type { Route } from "./+types/admin-verifactu-exportar";
import { requireAdmin } from "~/features/identity/session.server";
import { verifactuExport } from "~/features/admin/verifactu-staff.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return verifactuExport(new URL(request.url));
}
