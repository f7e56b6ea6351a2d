import type { Route } from "./+types/admin-verifactu";
import { requireStaffDesk } from "~/features/accounts/staff-desk.server";
import { requireStaff } from "~/features/identity/session.server";
import { VerifactuPage, type VerifactuAnswer } from "~/features/verifactu/staff-page";
import { verifactuAction, verifactuPage } from "~/features/verifactu/staff-page.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Verifactu · Panel de Administración",
    description: "Panel interno.",
    path: "/admin/verifactu",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "verifactu.view");
  return verifactuPage(new URL(request.url));
}

export async function action({ request, context }: Route.ActionArgs) {
  // 'Anular' and 'Subsanar' also need verifactu.manage: the feature checks it.
  const desk = await requireStaffDesk({ request, context }, "verifactu.view");
  return verifactuAction(request, desk);
}

export default function AdminVerifactu({ loaderData, actionData }: Route.ComponentProps) {
  return <VerifactuPage data={loaderData} answer={actionData as VerifactuAnswer} />;
}
