import { CreditCard, FlaskConical, Undo2 } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/pago-simulado";
import { requireCustomer } from "~/features/accounts/session.server";
import { formatPrice } from "~/features/catalogue/services";
import { paymentMessages } from "~/features/payments/payment-messages";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import {
  deliverToWebhook,
  findSimulatedPurchase,
  simulatedEvents,
  type SimulatedOutcome,
} from "~/features/payments/simulated-checkout.server";
import { pageMeta } from "~/features/seo/meta";
import { getConfig } from "~/platform/config.server";
import { Button } from "~/ui/button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Pago simulado",
    description: "Pasarela de pago simulada.",
    path: "/pago-simulado",
    noIndex: true,
  });

async function load(request: Request, sessionId: string) {
  // Only the local simulation has this page; with Stripe configured it does not exist.
  if (getConfig().stripe.secretKey) throw new Response("Not Found", { status: 404 });
  const viewer = await requireCustomer(request);
  const purchase = await findSimulatedPurchase(sessionId, viewer);
  if (!purchase) throw new Response("Not Found", { status: 404 });
  return { viewer, purchase };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { purchase } = await load(request, params.sessionId);
  return {
    serviceName: purchase.serviceName,
    price: purchase.price,
    status: purchase.status,
  };
}

/** Like Stripe Checkout, a declined card can be retried on the same session. */
const payable = (status: string) => status === "pending" || status === "failed";

/** Which outcomes a purchase in each state can still have. */
function allowed(outcome: string, status: string): outcome is SimulatedOutcome {
  if (outcome === "refund") return status === "completed";
  return ["pay", "decline", "cancel"].includes(outcome) && payable(status);
}

export async function action({ request, params }: Route.ActionArgs) {
  const { viewer, purchase } = await load(request, params.sessionId);
  let outcome: string;
  try {
    outcome = String((await request.formData()).get("outcome"));
  } catch {
    return data({ declined: false }, { status: 400 });
  }
  if (!allowed(outcome, purchase.status)) return data({ declined: false }, { status: 400 });
  for (const event of simulatedEvents(outcome, purchase, viewer.email)) {
    const status = await deliverToWebhook(event);
    if (status !== 200) return data({ declined: false }, { status: 502 });
  }
  if (outcome === "pay")
    return redirect(`/pago-exitoso?service=${encodeURIComponent(purchase.serviceName)}`);
  if (outcome === "cancel") return redirect("/precios");
  if (outcome === "refund") return redirect("/test-pagos");
  return { declined: true };
}

export default function SimulatedCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const open = payable(loaderData.status);
  return (
    <section className="flex justify-center bg-slate-50 px-4 py-16">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <p className="inline-flex items-center gap-2 rounded-full bg-amber-50 px-3 py-1 text-xs font-semibold text-amber-800 ring-1 ring-amber-200">
          <FlaskConical className="size-4" aria-hidden />
          Modo de pruebas: no se realiza ningún cargo
        </p>
        <h1 className="mt-6 text-2xl font-bold tracking-tight">Pago simulado</h1>
        <dl className="mt-6 space-y-2 text-sm">
          <div className="flex justify-between">
            <dt className="text-slate-500">Servicio</dt>
            <dd className="font-semibold text-ink">{loaderData.serviceName}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-slate-500">Importe</dt>
            <dd className="text-xl font-bold text-ink">{formatPrice(loaderData.price)}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-slate-500">Estado</dt>
            <dd>{purchaseStatusLabel(loaderData.status)}</dd>
          </div>
        </dl>
        {actionData?.declined || loaderData.status === "failed" ? (
          <p
            role="alert"
            className="mt-6 rounded-lg bg-red-50 p-4 text-sm text-red-900 ring-1 ring-red-200"
          >
            <strong className="block">{paymentMessages.declined.title}</strong>
            {paymentMessages.declined.description}
          </p>
        ) : null}
        {loaderData.status === "completed" ? (
          <Form method="post" className="mt-8">
            <Button
              type="submit"
              name="outcome"
              value="refund"
              variant="secondary"
              className="w-full"
              disabled={busy}
            >
              <Undo2 className="size-5" aria-hidden />
              Simular reembolso
            </Button>
          </Form>
        ) : null}
        <Form method="post" className="mt-8 space-y-3">
          <Button
            type="submit"
            name="outcome"
            value="pay"
            size="lg"
            className="w-full"
            disabled={busy || !open}
          >
            <CreditCard className="size-5" aria-hidden />
            Pagar
          </Button>
          <Button
            type="submit"
            name="outcome"
            value="decline"
            variant="secondary"
            className="w-full"
            disabled={busy || !open}
          >
            Simular pago rechazado
          </Button>
          <Button
            type="submit"
            name="outcome"
            value="cancel"
            variant="ghost"
            className="w-full"
            disabled={busy || !open}
          >
            Cancelar
          </Button>
        </Form>
      </div>
    </section>
  );
}
