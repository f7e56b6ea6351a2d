import type { Route } from "./+types/admin-auditoria";
import { requireStaff } from "~/features/identity/session.server";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";
import { auditLogPage } from "~/features/audit/audit-log.server";
import { AuditPage } from "~/features/audit/audit-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Auditoría · Panel de Administración",
    description: "Panel interno.",
    path: "/admin/auditoria",
  });

export const handle = adminShellHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "audit.view");
  return auditLogPage(new URL(request.url));
}

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell current="auditoria">
      <AuditPage data={loaderData} />
    </AdminShell>
  );
}
