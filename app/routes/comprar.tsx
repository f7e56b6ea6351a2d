import type { Route } from "./+types/comprar";
import { requireCustomer } from "~/features/identity/session.server";
import { purchasePage, startCheckoutFromPage } from "~/features/payments/checkout.server";
import { PurchasePage } from "~/features/payments/purchase-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  privatePageMeta(matches, {
    title: "Comprar",
    description: "Confirma tu compra y pasa al pago.",
    path: `/comprar/${params.servicio}`,
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return purchasePage(await requireCustomer(request), params.servicio);
}

export async function action({ request }: Route.ActionArgs) {
  await requireCustomer(request);
  return startCheckoutFromPage(request);
}

export default function Purchase({ loaderData, actionData }: Route.ComponentProps) {
  return <PurchasePage page={loaderData} answer={actionData} />;
}
