import type { Route } from "./+types/admin-verifactu-exportar";
import { requireStaff } from "~/features/identity/session.server";
import { staffVerifactuExport } from "~/features/admin/verifactu-staff.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff({ request, context }, "verifactu.export");
  return staffVerifactuExport(new URL(request.url), staff);
}
