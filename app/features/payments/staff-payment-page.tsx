import { invoiceKindName } from "~/features/billing/invoice-type";
import { FileText, RotateCcw, Save, TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import type { InvoiceRecordState } from "~/features/billing/invoice-record-states.server";
import { formatPrice } from "~/features/catalogue/services";
import { VAT_INCLUDED } from "~/features/catalogue/vat";
import type { FormRefusal } from "~/platform/forms/form-answer";
import { Button } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import { FactList, type Fact } from "~/ui/signed-in/fact-list";
import { cardClasses, Checkbox, Select, TextArea } from "~/ui/form";
import { useIntentAnswer } from "~/ui/signed-in/intent-answer";
import { IntentForm } from "~/ui/signed-in/intent-form";
import { RecordPageHead } from "~/ui/signed-in/page-head";
import {
  AFTER_SALE_LIMITS,
  afterSaleMessages,
  deliverySchema,
  refundSchema,
} from "./after-sale-rules";
import { deliveryStatuses, deliveryStatusLabel } from "./after-sale-status";
import type { staffPaymentPage } from "./after-sale.server";
import { dayAsDate, NOT_IN_TOTALS } from "./order-timeline";
import { OrderTimelineView } from "./order-timeline-view";
import { purchaseStatusLabel } from "./purchase-status";

type StaffPayment = Awaited<ReturnType<typeof staffPaymentPage>>;
type Answer = FormRefusal | undefined;

const afterSaleIntents = ["delivery", "refund"] as const;

const priceOf = (amount: number) => formatPrice(amount, { cents: "always" });

/**
 * A payment for staff (/admin/pagos/:paymentId): the sale and its invoices, any withdrawal the
 * customer asked for, and on a paid sale its delivery and its refund.
 */
export function StaffPaymentPage({ sale, answer }: { sale: StaffPayment; answer: Answer }) {
  const { payment, purchase, invoices, timeline } = sale;
  return (
    <>
      <RecordPageHead
        back={{ to: "/admin?tab=pagos", label: "Volver a Pagos" }}
        title={`Pago de ${payment.serviceName}`}
      >
        <p className="mt-1 text-slate-600">
          {priceOf(payment.amount)} ({VAT_INCLUDED}) ·{" "}
          <span data-purchase-status={purchase.status}>{purchaseStatusLabel(purchase.status)}</span>
          {["withdrawn", "refunded"].includes(purchase.status)
            ? ` · ${NOT_IN_TOTALS} de ingresos ni en el ticket medio`
            : ""}
        </p>
        {purchase.withdrawalRequestedAt ? (
          <WithdrawalNotice
            requestedAt={purchase.withdrawalRequestedAt}
            refundDueBy={timeline.refundDueBy}
          />
        ) : null}
      </RecordPageHead>

      <div className="mt-8 grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-8">
          <section className={cardClasses} aria-labelledby="timeline-heading">
            <h2 id="timeline-heading" className="text-lg font-semibold">
              Historial del pedido
            </h2>
            <OrderTimelineView timeline={timeline} className="mt-4" />
          </section>
          <SaleFacts sale={sale} />
          <InvoiceList invoices={invoices} />
        </div>
        <div className="space-y-8">
          <AfterSaleForms sale={sale} answer={answer} />
        </div>
      </div>
    </>
  );
}

function WithdrawalNotice({
  requestedAt,
  refundDueBy,
}: {
  requestedAt: Date;
  refundDueBy: string | null;
}) {
  return (
    <p
      role="status"
      className="mt-4 flex gap-2 rounded-lg bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-200"
    >
      <TriangleAlert className="size-5 shrink-0" aria-hidden />
      <span>
        <strong>El cliente ha desistido del contrato</strong> el{" "}
        {formatDate(requestedAt, "longDateTime")}.{" "}
        {refundDueBy
          ? `Hay que devolverle el importe que corresponda a más tardar el ${formatDate(dayAsDate(refundDueBy), "date")} (14 días naturales, art. 107.1 TRLGDCU). La entrega queda cerrada.`
          : "El importe ya se ha devuelto."}
      </span>
    </p>
  );
}

function SaleFacts({ sale: { payment, purchase } }: { sale: StaffPayment }) {
  const facts: Fact[] = [
    {
      label: "Cliente",
      // The buyer's staff page (decision 052): their other purchases, invoices and tickets.
      value: payment.customerPageId ? (
        <Link
          to={`/admin/clientes/${payment.customerPageId}`}
          className="wrap-anywhere font-semibold text-brand-700 underline"
        >
          {payment.customerEmail}
        </Link>
      ) : (
        <span className="wrap-anywhere">{payment.customerEmail}</span>
      ),
    },
    { label: "Servicio", value: payment.serviceName },
    { label: "Importe", value: priceOf(payment.amount) },
    { label: "Estado del pago", value: purchaseStatusLabel(purchase.status) },
    { label: "Fecha", value: formatDate(payment.createdAt, "shortDateTime") },
    {
      label: "Entrega",
      value:
        deliveryStatusLabel(purchase.deliveryStatus) +
        (["withdrawn", "refunded"].includes(purchase.status) ? " (cerrada)" : ""),
    },
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
      <FactList facts={facts} className="mt-4 grid gap-3 text-sm sm:grid-cols-2" />
    </section>
  );
}

function InvoiceList({ invoices }: Pick<StaffPayment, "invoices">) {
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
              {invoice.recordState?.annulled ? (
                <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-bold text-red-800">
                  ANULADA
                </span>
              ) : null}
              <span className="text-slate-600">
                {invoiceKindName(invoice)} · {formatDate(invoice.issuedAt, "date")} ·{" "}
                {priceOf(invoice.totalAmount)}
              </span>
              {invoice.recordState ? <RecordState state={invoice.recordState} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const recordTones: Record<InvoiceRecordState["status"], string> = {
  pending: "bg-amber-100 text-amber-900",
  accepted: "bg-emerald-100 text-emerald-900",
  accepted_with_errors: "bg-orange-100 text-orange-900",
  rejected: "bg-red-100 text-red-900",
};

/** The invoice's Verifactu record as AEAT left it, with AEAT's words when it objected. */
function RecordState({ state }: { state: InvoiceRecordState }) {
  return (
    <span className="basis-full text-xs" data-record-status={state.status}>
      <span className="text-slate-600">Verifactu: </span>
      <span className={`rounded-full px-2 py-0.5 font-semibold ${recordTones[state.status]}`}>
        {state.label}
      </span>
      {state.aeatText ? <span className="mt-1 block text-slate-700">{state.aeatText}</span> : null}
    </span>
  );
}

/**
 * Delivery while the sale is paid; the refund while it is paid or withdrawn (the withdrawal
 * obliges it); otherwise why there are none. The timeline decides (order-timeline.ts).
 */
function AfterSaleForms({
  sale: { payment, purchase, timeline },
  answer,
}: {
  sale: StaffPayment;
  answer: Answer;
}) {
  const { sending, answerFor } = useIntentAnswer(afterSaleIntents, "delivery", answer);
  if (!timeline.deliveryOpen && !timeline.refundOpen)
    return (
      <p className={`${cardClasses} text-sm text-slate-600`}>
        {purchase.status === "refunded"
          ? "Pago reembolsado: la entrega y el reembolso están cerrados."
          : "Este pago no está completado: no tiene entrega ni reembolso."}
      </p>
    );
  return (
    <>
      {timeline.deliveryOpen ? (
        <DeliveryForm
          key={`${purchase.deliveryStatus}-${purchase.deliveryNote ?? ""}`}
          purchase={purchase}
          busy={sending === "delivery"}
          answer={answerFor("delivery")}
        />
      ) : (
        <p className={`${cardClasses} text-sm text-slate-600`}>
          El cliente ha desistido: la entrega está cerrada.
        </p>
      )}
      <RefundForm
        amount={payment.amount}
        busy={sending === "refund"}
        answer={answerFor("refund")}
        requestedAt={purchase.refundRequestedAt}
      />
    </>
  );
}

function DeliveryForm({
  purchase,
  busy,
  answer,
}: {
  purchase: StaffPayment["purchase"];
  busy: boolean;
  answer: Answer;
}) {
  return (
    <IntentForm
      intent="delivery"
      heading="Entrega"
      schema={deliverySchema}
      messages={afterSaleMessages}
      answer={answer}
    >
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
    </IntentForm>
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
  requestedAt: Date | null;
}) {
  const price = priceOf(amount);
  return (
    <IntentForm
      intent="refund"
      heading="Reembolso"
      schema={refundSchema}
      messages={afterSaleMessages}
      answer={answer}
    >
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
    </IntentForm>
  );
}
