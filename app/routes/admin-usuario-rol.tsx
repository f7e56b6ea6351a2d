import type { Route } from "./+types/admin-usuario-rol";
import { requireStaff } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { roleChangePage } from "~/features/admin/role-change-page.server";
import { RoleChangePage } from "~/features/admin/role-change-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  privatePageMeta(matches, {
    title: "Cambiar rol · Panel de Administración",
    description: "Panel interno.",
    path: `/admin/usuarios/${params.userId}/rol`,
  });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Only who may change roles sees the question; the change is the panel's action (/admin).
  const staff = await requireStaff({ request, context }, "roles.manage");
  await requireRecentAuthentication(request, { fallback: "/admin?tab=usuarios" });
  return roleChangePage(staff, params.userId, new URL(request.url));
}

export default function AdminRoleChange({ loaderData }: Route.ComponentProps) {
  return <RoleChangePage change={loaderData} />;
}
