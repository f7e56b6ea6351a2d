import type { Route } from "./+types/admin-auditoria";
import { requireStaff } from "~/features/identity/session.server";
import { auditLogPage } from "~/features/audit/audit-log.server";
import { AuditPage } from "~/features/audit/audit-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Auditoría · Panel de Administración",
    description: "Panel interno.",
    path: "/admin/auditoria",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "audit.view");
  return auditLogPage(new URL(request.url));
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  return <AuditPage data={loaderData} />;
}
