import type { Route } from "./+types/admin-verifactu-exportar";
import { requireStaff } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { staffVerifactuExport } from "~/features/admin/verifactu-staff.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff({ request, context }, "verifactu.export");
  // A whole file of the company's data leaves with it: proved again first (decision 063).
  await requireRecentAuthentication(request, { fallback: "/admin/verifactu", download: true });
  return staffVerifactuExport(new URL(request.url), staff);
}
