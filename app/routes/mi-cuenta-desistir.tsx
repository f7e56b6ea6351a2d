import type { Route } from "./+types/mi-cuenta-desistir";
import { accountTabPath } from "~/features/customer-area/account-tabs";
import { requireCustomer } from "~/features/identity/session.server";
import { withdrawalAction, withdrawalPage } from "~/features/payments/after-sale.server";
import { WithdrawalPage } from "~/features/payments/withdrawal-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  privatePageMeta(matches, {
    title: "Desistir del contrato",
    description: "Ejerce tu derecho de desistimiento de 14 días.",
    path: `/mi-cuenta/compras/${params.purchaseId}/desistir`,
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return withdrawalPage(await requireCustomer(request), params.purchaseId);
}

export async function action({ request, params }: Route.ActionArgs) {
  return withdrawalAction(request, await requireCustomer(request), params.purchaseId);
}

export default function Withdrawal({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <WithdrawalPage
      page={loaderData}
      answer={actionData}
      purchasesPath={accountTabPath("compras")}
    />
  );
}
