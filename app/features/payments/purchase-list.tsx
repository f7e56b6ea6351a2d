import { FilePlus2, FileText, RotateCcw, Undo2 } from "lucide-react";
import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { VAT_INCLUDED } from "~/features/catalogue/vat";
import { formatDate } from "~/platform/dates";
import { deliveryStatusLabel } from "./after-sale-status";
import { dayAsDate, NOT_IN_TOTALS, type OrderTimeline } from "./order-timeline";
import { OrderTimelineView } from "./order-timeline-view";
import { purchaseStatusLabel } from "./purchase-status";
import { SITE_LOCALE } from "~/platform/locale";

/**
 * A purchase's price in its currency, said once: '449,00€' for euros (the site's way), and the
 * currency's own symbol or code otherwise.
 */
export function purchasePriceText(priceCents: number, currency: string): string {
  if (currency.toUpperCase() === "EUR") return formatPrice(priceCents, { cents: "always" });
  try {
    return new Intl.NumberFormat(SITE_LOCALE.intl, { style: "currency", currency }).format(
      priceCents / 100,
    );
  } catch {
    return `${(priceCents / 100).toFixed(2)} ${currency}`;
  }
}

export type PurchaseListItem = {
  id: string;
  serviceName: string;
  status: string;
  price: number;
  currency: string;
  createdAt: Date | string;
  completedAt: Date | string | null;
  invoice?: InvoiceLink;
  /** The complete invoice that replaced the simplified one at the customer's request (an F3). */
  substituteInvoice?: InvoiceLink;
  correctiveInvoice?: InvoiceLink;
  /** Whether the customer may still ask for a complete invoice in place of the simplified one. */
  invoiceSubstitutable?: boolean;
  deliveryStatus?: string;
  deliveryNote?: string | null;
  withdrawalRequestedAt?: Date | string | null;
  withdrawable?: boolean;
  /** The order's timeline (payments/order-timeline.ts); absent on lists that do not show it. */
  timeline?: OrderTimeline;
  /** Where 'Intentar de nuevo' opens the service's purchase dialog. */
  retryPath?: string | null;
};

/** Paid, withdrawn or refunded: an order with a story to tell. */
const hasStory = (status: string) => ["completed", "withdrawn", "refunded"].includes(status);

/** `annulled`: the invoice was issued in error and its anulación generated (decision 064). */
type InvoiceLink = { id: string; number: string; annulled?: boolean };

/**
 * A download of one of the customer's invoices (a file: the browser fetches it, not the router);
 * `replaced`: a complete invoice replaced this simplified one.
 */
function InvoiceDownload({
  invoice,
  label,
  replaced = false,
}: {
  invoice: InvoiceLink;
  label: string;
  replaced?: boolean;
}) {
  return (
    <a
      href={`/mi-cuenta/facturas/${invoice.id}`}
      download
      className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
    >
      <FileText className="size-4" aria-hidden />
      {label} {invoice.number}
      {invoice.annulled ? (
        <span className="ml-1 rounded bg-red-100 px-1.5 py-0.5 text-xs font-bold text-red-800">
          ANULADA
        </span>
      ) : null}
      {replaced ? (
        <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-bold text-slate-700">
          SUSTITUIDA
        </span>
      ) : null}
    </a>
  );
}

/** A customer's purchases: service, status, date, completed date, price; `help` adds a link each. */
export function PurchaseList({
  purchases,
  help,
}: {
  purchases: PurchaseListItem[];
  help?: (purchase: PurchaseListItem) => React.ReactNode;
}) {
  return (
    <ul className="divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
      {purchases.map((purchase) => (
        <li key={purchase.id} className="flex flex-wrap items-start justify-between gap-3 p-4">
          <div className="min-w-0">
            <p className="font-semibold text-ink">{purchase.serviceName}</p>
            <p className="text-sm text-slate-500">
              {formatDate(purchase.createdAt, "date")}
              {purchase.completedAt
                ? ` · completada el ${formatDate(purchase.completedAt, "date")}`
                : ""}
            </p>
            {purchase.status === "completed" && purchase.deliveryStatus ? (
              <p className="mt-1 text-sm text-slate-700">
                Entrega: <strong>{deliveryStatusLabel(purchase.deliveryStatus)}</strong>
                {purchase.deliveryNote ? ` · ${purchase.deliveryNote}` : ""}
              </p>
            ) : null}
            {purchase.withdrawalRequestedAt ? (
              <p className="mt-1 text-sm text-amber-900">
                Desististe el {formatDate(purchase.withdrawalRequestedAt, "longDateTime")}
              </p>
            ) : null}
            {purchase.timeline && hasStory(purchase.status) ? (
              <OrderTimelineView timeline={purchase.timeline} className="mt-3" />
            ) : null}
            {purchase.withdrawable ? (
              <p className="mt-2 text-sm">
                <Link
                  to={`/mi-cuenta/compras/${purchase.id}/desistir`}
                  className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  <Undo2 className="size-4" aria-hidden />
                  Desistir del contrato
                </Link>
                {purchase.timeline?.withdrawalOpenUntil ? (
                  <span className="text-slate-600">
                    {" "}
                    (hasta el {formatDate(dayAsDate(purchase.timeline.withdrawalOpenUntil), "date")}
                    )
                  </span>
                ) : null}
              </p>
            ) : null}
            {purchase.timeline?.retry && purchase.retryPath ? (
              <p className="mt-2 text-sm">
                <span className="text-slate-600">No se ha cobrado nada. </span>
                <Link
                  to={purchase.retryPath}
                  className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  <RotateCcw className="size-4" aria-hidden />
                  Intentar de nuevo
                </Link>
              </p>
            ) : null}
            {purchase.invoice || purchase.correctiveInvoice ? (
              <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                {purchase.invoice ? (
                  <InvoiceDownload
                    invoice={purchase.invoice}
                    label={purchase.substituteInvoice ? "Factura simplificada" : "Factura"}
                    replaced={Boolean(purchase.substituteInvoice)}
                  />
                ) : null}
                {purchase.substituteInvoice ? (
                  <InvoiceDownload invoice={purchase.substituteInvoice} label="Factura completa" />
                ) : null}
                {purchase.correctiveInvoice ? (
                  <InvoiceDownload
                    invoice={purchase.correctiveInvoice}
                    label="Factura rectificativa"
                  />
                ) : null}
              </div>
            ) : null}
            {purchase.invoiceSubstitutable && purchase.invoice ? (
              <p className="mt-2 text-sm">
                <Link
                  to={`/mi-cuenta/facturas/${purchase.invoice.id}/completa`}
                  className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  <FilePlus2 className="size-4" aria-hidden />
                  Pedir factura completa
                </Link>
              </p>
            ) : null}
            {help ? <div className="mt-2 text-sm">{help(purchase)}</div> : null}
          </div>
          <div className="text-right">
            <p className="font-semibold text-ink">
              {purchasePriceText(purchase.price, purchase.currency)}
            </p>
            <p className="text-xs text-slate-500">{VAT_INCLUDED}</p>
            <p className="text-sm text-slate-600" data-purchase-status={purchase.status}>
              {purchaseStatusLabel(purchase.status)}
            </p>
            {purchase.status === "withdrawn" || purchase.status === "refunded" ? (
              <p className="text-xs text-slate-500">{NOT_IN_TOTALS}</p>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
