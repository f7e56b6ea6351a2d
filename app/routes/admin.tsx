import type { Route } from "./+types/admin";
import { requireAdmin } from "~/features/identity/session.server";
import { adminAction } from "~/features/admin/admin-actions.server";
import { AdminPage } from "~/features/admin/admin-page";
import { adminPanel } from "~/features/admin/admin-panel.server";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";
import { adminTabs } from "~/features/admin/admin-tabs";
import { privatePageMeta } from "~/features/seo/meta";

export const handle = adminShellHandle;

export const meta: Route.MetaFunction = ({ matches, data }) => {
  const section = adminTabs.find((tab) => tab.id === data?.view.tab);
  return privatePageMeta(matches, {
    title:
      section && section.id !== "dashboard"
        ? `${section.label} · Panel de Administración`
        : "Panel de Administración",
    description: "Panel interno.",
    path: "/admin",
  });
};

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return { admin, ...(await adminPanel(new URL(request.url))) };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return adminAction(request, admin);
}

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

export default function AdminPanel({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminShell current={loaderData.view.tab}>
      <AdminPage panel={loaderData} selfId={loaderData.admin.id} answer={actionData} />
    </AdminShell>
  );
}
