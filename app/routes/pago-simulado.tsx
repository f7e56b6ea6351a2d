import { CreditCard, FlaskConical, Undo2 } from "lucide-react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/pago-simulado";
import { formatPrice } from "~/features/catalogue/services";
import { paymentMessages } from "~/features/payments/payment-messages";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import {
  requireSimulatedCheckout,
  runSimulatedOutcome,
  simulatedCheckoutPage,
} from "~/features/payments/simulated-checkout.server";
import { pageMeta } from "~/features/seo/meta";
import { Button } from "~/ui/button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Pago simulado",
    description: "Pasarela de pago simulada.",
    path: "/pago-simulado",
    noIndex: true,
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return simulatedCheckoutPage(params.sessionId, await requireSimulatedCheckout(request));
}

export async function action({ request, params }: Route.ActionArgs) {
  return runSimulatedOutcome(request, params.sessionId, await requireSimulatedCheckout(request));
}

export default function SimulatedCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== "idle";
  const open = loaderData.outcomes.includes("pay");
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
        {loaderData.outcomes.includes("refund") ? (
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
