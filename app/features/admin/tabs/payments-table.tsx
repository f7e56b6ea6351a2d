import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import { dateColumn, fit, ListTable, type Column } from "./list-table";
import type { PaymentRow } from "./payments-tab.server";

const columns: Column<PaymentRow>[] = [
  dateColumn("Fecha", "whitespace-nowrap", (payment) => payment.createdAt),
  { header: "Email", cell: (payment) => payment.customerEmail },
  { header: "Servicio", className: "whitespace-nowrap", cell: (payment) => payment.serviceName },
  {
    header: "Importe",
    className: "whitespace-nowrap tabular-nums",
    cell: (payment) => formatPrice(payment.amount, { cents: "always" }),
  },
  {
    header: "Estado",
    className: "whitespace-nowrap",
    cell: (payment) => purchaseStatusLabel(payment.status),
  },
  {
    header: "Detalle",
    className: fit,
    cell: (payment) => (
      <Link
        to={`/admin/pagos/${payment.id}`}
        aria-label={`Ver el pago de ${payment.customerEmail}, ${payment.serviceName}`}
        className="font-semibold text-brand-700 underline"
      >
        Ver
      </Link>
    ),
  },
];

/** Payments, each with a link to its detail page (also the dashboard's latest payments). */
export function PaymentsTable({ rows, caption }: { rows: PaymentRow[]; caption: string }) {
  return (
    <ListTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowData={(payment) => ({ "data-status": payment.status })}
    />
  );
}
