import type { Route } from "./+types/admin-auditoria-exportar";
import { requireStaff } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { auditLogExport } from "~/features/audit/audit-log.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff({ request, context }, "audit.view");
  // A whole file of the company's data leaves with it: proved again first (decision 063).
  await requireRecentAuthentication(request, { fallback: "/admin/auditoria", download: true });
  return auditLogExport(new URL(request.url), staff);
}
