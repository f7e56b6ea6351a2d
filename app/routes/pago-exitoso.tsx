import type { Route } from "./+types/pago-exitoso";
import { accountTabPath } from "~/features/customer-area/account-tabs";
import { getViewer } from "~/features/identity/session.server";
import { paymentSuccess } from "~/features/payments/payment-receipt.server";
import {
  PaymentSuccessPage,
  RECEIPT_REFRESH_SECONDS,
} from "~/features/payments/payment-success-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  ...privatePageMeta(matches, {
    title: "Pago completado",
    description: "Tu pago se ha completado correctamente. Te contactaremos en menos de 24 horas.",
    path: "/pago-exitoso",
  }),
  // While the confirmation is on its way the page reloads itself, with or without JavaScript.
  ...(loaderData?.receipt?.state === "confirming"
    ? [{ httpEquiv: "refresh", content: String(RECEIPT_REFRESH_SECONDS) }]
    : []),
];

export async function loader({ request }: Route.LoaderArgs) {
  const { viewer } = await getViewer(request);
  return paymentSuccess(viewer, new URL(request.url));
}

const links = { purchases: accountTabPath("compras"), support: accountTabPath("soporte") };

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  return (
    <PaymentSuccessPage
      receipt={loaderData.receipt}
      serviceName={loaderData.serviceName}
      links={links}
    />
  );
}
