import type { Route } from "./+types/admin-auditoria-exportar";
import { requireStaff } from "~/features/identity/session.server";
import { auditLogExport } from "~/features/audit/audit-log.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff({ request, context }, "audit.view");
  return auditLogExport(new URL(request.url), staff);
}
