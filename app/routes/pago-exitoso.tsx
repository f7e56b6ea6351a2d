import type { Route } from "./+types/pago-exitoso";
import { PaymentSuccessPage } from "~/features/payments/payment-success-page";
import { pageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Pago completado",
    description: "Tu pago se ha completado correctamente. Te contactaremos en menos de 24 horas.",
    path: "/pago-exitoso",
    noIndex: true,
  });

export default function PaymentSuccess() {
  return <PaymentSuccessPage />;
}
