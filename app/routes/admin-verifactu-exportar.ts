import type { Route } from "./+types/admin-verifactu-exportar";
import { requireStaffDesk } from "~/features/accounts/staff-desk.server";
import { staffVerifactuExport } from "~/features/verifactu/staff-page.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const desk = await requireStaffDesk({ request, context }, "verifactu.export");
  return staffVerifactuExport(request, desk);
}
