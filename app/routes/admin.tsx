import type { Route } from "./+types/admin";
import { requireStaff } from "~/features/identity/session.server";
import { adminAction } from "~/features/admin/admin-actions.server";
import { AdminPage } from "~/features/admin/admin-page";
import { staffPanel } from "~/features/admin/admin-panel.server";
import { adminTabs } from "~/features/admin/admin-tabs";
import { privatePageMeta } from "~/features/seo/meta";

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

export async function loader({ request, context }: Route.LoaderArgs) {
  // Each tab needs its own capability: the feature checks it (the dashboard may send on).
  const staff = await requireStaff({ request, context });
  const panel = await staffPanel(new URL(request.url), staff);
  return { staff: { id: staff.id, role: staff.role }, ...panel };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Each change needs its own capability: the feature checks it.
  const staff = await requireStaff({ request, context });
  return adminAction(request, staff);
}

export default function AdminPanel({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminPage panel={loaderData} staff={loaderData.staff} answer={actionData} />;
}
