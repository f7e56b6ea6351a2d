import type { Route } from "./+types/admin-verifactu-declaracion";
import { requireStaff } from "~/features/identity/session.server";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";
import { VerifactuDeclarationPage } from "~/features/verifactu/declaration-page";
import { privatePageMeta } from "~/features/seo/meta";
import { declaration } from "~/features/verifactu/declaration.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Declaración responsable · Verifactu",
    description: "Panel interno.",
    path: "/admin/verifactu/declaracion",
  });

export const handle = adminShellHandle;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "verifactu.view");
  return declaration();
}

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

export default function AdminVerifactuDeclaration({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell current="verifactu">
      <VerifactuDeclarationPage {...loaderData} />
    </AdminShell>
  );
}
