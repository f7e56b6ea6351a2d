import { ArrowLeft, FileText, RotateCcw, Save, TriangleAlert } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin-pago";
import { requireAdmin } from "~/features/identity/session.server";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";
import { formatPrice } from "~/features/catalogue/services";
import { VAT_INCLUDED } from "~/features/catalogue/vat";
import {
  AFTER_SALE_LIMITS,
  afterSaleMessages,
  deliverySchema,
  refundSchema,
} from "~/features/payments/after-sale-rules";
import { deliveryStatuses, deliveryStatusLabel } from "~/features/payments/after-sale-status";
import { staffPaymentAction, staffPaymentPage } from "~/features/payments/after-sale.server";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import { pageMeta } from "~/features/seo/meta";
import type { z } from "~/platform/validation/zod";
import { Button } from "~/ui/button";
import { formatDate } from "~/ui/dates";
import { cardClasses, Checkbox, Select, TextArea, ValidatedForm } from "~/ui/form";

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, {
    title: data ? `Pago de ${data.payment.serviceName}` : "Pago",
    description: "Panel interno.",
    path: data ? `/admin/pagos/${data.payment.id}` : "/admin",
    noIndex: true,
  });

export const handle = adminShellHandle;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  return staffPaymentPage(params.paymentId);
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return staffPaymentAction(request, admin, params.paymentId);
}

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

type Intent = "delivery" | "refund";
type Data = Route.ComponentProps["loaderData"];
type Answer = Route.ComponentProps["actionData"];

export default function StaffPayment({ loaderData, actionData }: Route.ComponentProps) {
  const { payment, purchase, invoices } = loaderData;
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  // Two forms share one action: its answer belongs to the one sent last.
  const [lastIntent, setLastIntent] = useState<Intent>("delivery");
  if ((sending === "delivery" || sending === "refund") && sending !== lastIntent)
    setLastIntent(sending);
  const answerFor = (intent: Intent) => (intent === lastIntent ? actionData : undefined);
  const paid = purchase.status === "completed";

  return (
    <AdminShell current="pagos">
      <Link
        to="/admin?tab=pagos"
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Volver a Pagos
      </Link>
      <h1 className="mt-5 text-2xl font-bold tracking-tight sm:text-3xl">
        Pago de {payment.serviceName}
      </h1>
      <p className="mt-1 text-slate-600">
        {formatPrice(payment.amount, { cents: "always" })} ({VAT_INCLUDED}) ·{" "}
        {purchaseStatusLabel(purchase.status)}
      </p>
      {purchase.withdrawalRequestedAt ? (
        <p
          role="status"
          className="mt-4 flex gap-2 rounded-lg bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-200"
        >
          <TriangleAlert className="size-5 shrink-0" aria-hidden />
          <span>
            <strong>El cliente ha desistido del contrato</strong> el{" "}
            {formatDate(purchase.withdrawalRequestedAt, "longDateTime")}. Hay 14 días naturales para
            devolverle el importe que corresponda.
          </span>
        </p>
      ) : null}

      <div className="mt-8 grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-8">
          <SaleFacts payment={payment} purchase={purchase} />
          <InvoiceList invoices={invoices} />
        </div>
        <div className="space-y-8">
          {paid ? (
            <>
              <DeliveryForm
                key={`${purchase.deliveryStatus}-${purchase.deliveryNote ?? ""}`}
                purchase={purchase}
                busy={sending === "delivery"}
                answer={answerFor("delivery")}
              />
              <RefundForm
                amount={payment.amount}
                busy={sending === "refund"}
                answer={answerFor("refund")}
                requestedAt={purchase.refundRequestedAt}
              />
            </>
          ) : (
            <p className={`${cardClasses} text-sm text-slate-600`}>
              {purchase.status === "refunded"
                ? `Reembolsado. Motivo: ${purchase.refundReason ?? "devolución desde Stripe"}.`
                : "Este pago no está completado: no tiene entrega ni reembolso."}
            </p>
          )}
        </div>
      </div>
    </AdminShell>
  );
}

function SaleFacts({ payment, purchase }: Pick<Data, "payment" | "purchase">) {
  const facts: { label: string; value: ReactNode }[] = [
    { label: "Cliente", value: <span className="wrap-anywhere">{payment.customerEmail}</span> },
    { label: "Servicio", value: payment.serviceName },
    { label: "Importe", value: formatPrice(payment.amount, { cents: "always" }) },
    { label: "Estado del pago", value: purchaseStatusLabel(purchase.status) },
    { label: "Fecha", value: formatDate(payment.createdAt, "shortDateTime") },
    { label: "Entrega", value: deliveryStatusLabel(purchase.deliveryStatus) },
    {
      label: "Inicio inmediato aceptado",
      value: purchase.immediateStartConsentAt
        ? formatDate(purchase.immediateStartConsentAt, "shortDateTime")
        : "No consta",
    },
    { label: "Referencia", value: <span className="font-mono text-xs">{purchase.id}</span> },
  ];
  return (
    <section className={cardClasses} aria-labelledby="sale-heading">
      <h2 id="sale-heading" className="text-lg font-semibold">
        Datos de la venta
      </h2>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt className="text-slate-600">{fact.label}</dt>
            <dd className="mt-0.5 font-medium text-ink">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const invoiceKinds: Record<string, string> = {
  simplified: "Factura simplificada",
  complete: "Factura",
  corrective: "Factura rectificativa",
};

function InvoiceList({ invoices }: Pick<Data, "invoices">) {
  return (
    <section className={cardClasses} aria-labelledby="invoices-heading">
      <h2 id="invoices-heading" className="text-lg font-semibold">
        Facturas
      </h2>
      {invoices.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">Este pago no tiene facturas.</p>
      ) : (
        <ul className="mt-3 space-y-2 text-sm">
          {invoices.map((invoice) => (
            <li key={invoice.id} className="flex flex-wrap items-center justify-between gap-2">
              <a
                href={`/admin/facturas/${invoice.id}`}
                download
                className="inline-flex items-center gap-1 font-semibold text-brand-700 underline"
              >
                <FileText className="size-4" aria-hidden />
                {invoice.number}
              </a>
              <span className="text-slate-600">
                {invoiceKinds[invoice.kind]} · {formatDate(invoice.issuedAt, "date")} ·{" "}
                {formatPrice(invoice.totalAmount, { cents: "always" })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One of the page's forms: a card with its heading, checked with the server's schema. */
function StaffForm<T>({
  schema,
  intent,
  heading,
  answer,
  children,
}: {
  schema: z.ZodMiniType<T>;
  intent: Intent;
  heading: string;
  answer: Answer;
  children: ReactNode;
}) {
  const headingId = `${intent}-heading`;
  return (
    <ValidatedForm
      method="post"
      schema={schema}
      messages={afterSaleMessages}
      answer={answer}
      className={`${cardClasses} space-y-4`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {heading}
      </h2>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </ValidatedForm>
  );
}

function DeliveryForm({
  purchase,
  busy,
  answer,
}: {
  purchase: Data["purchase"];
  busy: boolean;
  answer: Answer;
}) {
  return (
    <StaffForm schema={deliverySchema} intent="delivery" heading="Entrega" answer={answer}>
      <Select
        label="Estado de la entrega"
        name="deliveryStatus"
        defaultValue={purchase.deliveryStatus}
      >
        {deliveryStatuses.map((status) => (
          <option key={status} value={status}>
            {deliveryStatusLabel(status)}
          </option>
        ))}
      </Select>
      <TextArea
        label="Nota para el cliente (opcional)"
        name="note"
        rows={3}
        maxLength={AFTER_SALE_LIMITS.noteMax}
        defaultValue={purchase.deliveryNote ?? ""}
        hint="El cliente recibe un email con el nuevo estado y esta nota."
      />
      <Button type="submit" variant="secondary" disabled={busy}>
        <Save className="size-4" aria-hidden />
        {busy ? "Guardando..." : "Guardar entrega"}
      </Button>
    </StaffForm>
  );
}

function RefundForm({
  amount,
  busy,
  answer,
  requestedAt,
}: {
  amount: number;
  busy: boolean;
  answer: Answer;
  requestedAt: Date | string | null;
}) {
  const price = formatPrice(amount, { cents: "always" });
  return (
    <StaffForm schema={refundSchema} intent="refund" heading="Reembolso" answer={answer}>
      {requestedAt ? (
        <p className="text-sm text-slate-600">
          Reembolso solicitado el {formatDate(requestedAt, "shortDateTime")}; a la espera de que
          Stripe lo confirme. Puedes volver a enviarlo: no se cobrará dos veces.
        </p>
      ) : null}
      <TextArea
        label="Motivo del reembolso"
        name="reason"
        rows={3}
        maxLength={AFTER_SALE_LIMITS.refundReasonMax}
        hint="Figura en la factura rectificativa."
      />
      <Checkbox
        name="confirm"
        value="yes"
        label={`Confirmo que devolvemos al cliente el importe íntegro (${price}).`}
      />
      <Button type="submit" variant="danger" disabled={busy}>
        <RotateCcw className="size-4" aria-hidden />
        {busy ? "Reembolsando..." : `Reembolsar ${price}`}
      </Button>
    </StaffForm>
  );
}
