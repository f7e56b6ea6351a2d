import type { Route } from "./+types/test-pagos";
import { getViewer } from "~/features/identity/session.server";
import { PaymentTestPage } from "~/features/payments/payment-test-page";
import { paymentTestOverview } from "~/features/payments/purchases.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Prueba de pagos",
    description: "Estado de tus pagos.",
    path: "/test-pagos",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const { viewer } = await getViewer(request);
  return paymentTestOverview(viewer);
}

export default function PaymentTest({ loaderData }: Route.ComponentProps) {
  return <PaymentTestPage overview={loaderData} />;
}
