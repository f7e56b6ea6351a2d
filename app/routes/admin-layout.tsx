import { Outlet } from "react-router";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";

/**
 * The staff pages' layout: the admin shell, its handle (the root leaves out the site's header
 * and footer) and its error page, once for every staff page. Each page still guards itself:
 * this layout has no loader, so it reads nothing a page may not.
 */
export const handle = adminShellHandle;

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

export default function AdminLayout() {
  return (
    <AdminShell>
      <Outlet />
    </AdminShell>
  );
}
