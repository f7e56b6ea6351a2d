import type { Route } from "./+types/mi-cuenta-factura-completa";
import { accountTabPath } from "~/features/customer-area/account-tabs";
import { requireCustomer } from "~/features/identity/session.server";
import {
  substitutionAction,
  substitutionPage,
} from "~/features/billing/invoice-substitution.server";
import { SubstitutionPage } from "~/features/billing/invoice-substitution-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  privatePageMeta(matches, {
    title: "Pedir factura completa",
    description: "Una factura completa con tus datos fiscales en lugar de la simplificada.",
    path: `/mi-cuenta/facturas/${params.invoiceId}/completa`,
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return substitutionPage(await requireCustomer(request), params.invoiceId);
}

export async function action({ request, params }: Route.ActionArgs) {
  return substitutionAction(request, await requireCustomer(request), params.invoiceId);
}

export default function InvoiceSubstitution({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SubstitutionPage
      page={loaderData}
      answer={actionData}
      purchasesPath={accountTabPath("compras")}
    />
  );
}
