import type { Route } from "./+types/admin-verifactu";
import { requireAdmin } from "~/features/identity/session.server";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";
import { VerifactuPage, type VerifactuAnswer } from "~/features/admin/verifactu-page";
import { verifactuAction, verifactuPage } from "~/features/admin/verifactu-staff.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Verifactu · Panel de Administración",
    description: "Panel interno.",
    path: "/admin/verifactu",
  });

export const handle = adminShellHandle;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return verifactuPage(new URL(request.url));
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return verifactuAction(request);
}

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

export default function AdminVerifactu({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminShell current="verifactu">
      <VerifactuPage data={loaderData} answer={actionData as VerifactuAnswer} />
    </AdminShell>
  );
}
