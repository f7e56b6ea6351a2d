import type { Route } from "./+types/pago-exitoso";
import { PaymentSuccessPage } from "~/features/payments/payment-success-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Pago completado",
    description: "Tu pago se ha completado correctamente. Te contactaremos en menos de 24 horas.",
    path: "/pago-exitoso",
  });

export default function PaymentSuccess() {
  return <PaymentSuccessPage />;
}
