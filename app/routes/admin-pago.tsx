import type { Route } from "./+types/admin-pago";
import { requireStaff } from "~/features/identity/session.server";
import { staffPaymentAction, staffPaymentPage } from "~/features/payments/after-sale.server";
import { StaffPaymentPage } from "~/features/payments/staff-payment-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches, data }) =>
  privatePageMeta(matches, {
    title: data ? `Pago de ${data.payment.serviceName}` : "Pago",
    description: "Panel interno.",
    path: data ? `/admin/pagos/${data.payment.id}` : "/admin",
  });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "payments.view");
  return staffPaymentPage(params.paymentId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  // A refund and a delivery change each need their own capability: the feature checks it.
  const staff = await requireStaff({ request, context }, "payments.view");
  return staffPaymentAction(request, staff, params.paymentId);
}

export default function StaffPayment({ loaderData, actionData }: Route.ComponentProps) {
  return <StaffPaymentPage sale={loaderData} answer={actionData} />;
}
