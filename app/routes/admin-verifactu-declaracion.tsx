import type { Route } from "./+types/admin-verifactu-declaracion";
import { requireStaff } from "~/features/identity/session.server";
import { VerifactuDeclarationPage } from "~/features/verifactu/declaration-page";
import { privatePageMeta } from "~/features/seo/meta";
import { declaration } from "~/features/verifactu/declaration.server";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Declaración responsable · Verifactu",
    description: "Panel interno.",
    path: "/admin/verifactu/declaracion",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "verifactu.view");
  return declaration();
}

export default function AdminVerifactuDeclaration({ loaderData }: Route.ComponentProps) {
  return <VerifactuDeclarationPage {...loaderData} />;
}
