import { CreditCard, FlaskConical, Undo2 } from "lucide-react";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { Button, type ButtonStyle } from "~/ui/button";
import { paymentMessages } from "./payment-messages";
import { purchaseStatusLabel, type SimulatedOutcome } from "./purchase-status";
import type { simulatedCheckoutPage } from "./simulated-checkout.server";

type SimulatedCheckout = Awaited<ReturnType<typeof simulatedCheckoutPage>>;

/** How a checkout may end, as the buyer chooses it (a refund once it is paid). */
const endings: { outcome: SimulatedOutcome; style: ButtonStyle; label: ReactNode }[] = [
  {
    outcome: "pay",
    style: { size: "lg" },
    label: (
      <>
        <CreditCard className="size-5" aria-hidden />
        Pagar
      </>
    ),
  },
  { outcome: "decline", style: { variant: "secondary" }, label: "Simular pago rechazado" },
  { outcome: "cancel", style: { variant: "ghost" }, label: "Cancelar" },
];

/** The local stand-in for Stripe's checkout page: the purchase, and a button for each ending. */
export function SimulatedCheckoutPage({
  page,
  answer,
}: {
  page: SimulatedCheckout;
  answer: { declined: boolean } | undefined;
}) {
  const busy = useNavigation().state !== "idle";
  const open = page.outcomes.includes("pay");
  return (
    <section className="flex justify-center bg-slate-50 px-4 py-16">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <p className="inline-flex items-center gap-2 rounded-full bg-amber-50 px-3 py-1 text-xs font-semibold text-amber-800 ring-1 ring-amber-200">
          <FlaskConical className="size-4" aria-hidden />
          Modo de pruebas: no se realiza ningún cargo
        </p>
        <h1 className="mt-6 text-2xl font-bold tracking-tight">Pago simulado</h1>
        <CheckoutFacts page={page} />
        {answer?.declined || page.status === "failed" ? <Declined /> : null}
        {page.outcomes.includes("refund") ? (
          <Form method="post" className="mt-8">
            <OutcomeButton outcome="refund" style={{ variant: "secondary" }} disabled={busy}>
              <Undo2 className="size-5" aria-hidden />
              Simular reembolso
            </OutcomeButton>
          </Form>
        ) : null}
        <Form method="post" className="mt-8 space-y-3">
          {endings.map(({ outcome, style, label }) => (
            <OutcomeButton key={outcome} outcome={outcome} style={style} disabled={busy || !open}>
              {label}
            </OutcomeButton>
          ))}
        </Form>
      </div>
    </section>
  );
}

function CheckoutFacts({ page }: { page: SimulatedCheckout }) {
  const facts = [
    { label: "Servicio", value: page.serviceName, className: "font-semibold text-ink" },
    { label: "Importe", value: formatPrice(page.price), className: "text-xl font-bold text-ink" },
    { label: "Estado", value: purchaseStatusLabel(page.status) },
  ];
  return (
    <dl className="mt-6 space-y-2 text-sm">
      {facts.map(({ label, value, className }) => (
        <div key={label} className="flex justify-between">
          <dt className="text-slate-500">{label}</dt>
          <dd className={className}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Declined() {
  return (
    <p
      role="alert"
      className="mt-6 rounded-lg bg-red-50 p-4 text-sm text-red-900 ring-1 ring-red-200"
    >
      <strong className="block">{paymentMessages.declined.title}</strong>
      {paymentMessages.declined.description}
    </p>
  );
}

function OutcomeButton({
  outcome,
  style,
  disabled,
  children,
}: {
  outcome: SimulatedOutcome;
  style: ButtonStyle;
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      type="submit"
      name="outcome"
      value={outcome}
      {...style}
      className="w-full"
      disabled={disabled}
    >
      {children}
    </Button>
  );
}
