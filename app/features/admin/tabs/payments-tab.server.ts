import { and, eq, ilike, sum } from "drizzle-orm";
import { purchaseStatusLabel, purchaseStatuses } from "~/features/payments/purchase-status";
import { invoices, paymentDayTotals, payments, searchText } from "~/platform/db/schema";
import { choiceIn } from "../admin-tabs";
import { sqlCsvText, sqlDecimalEuros, sqlOwnLabel, sqlCsvDateTime } from "./csv-cells.server";
import { containsPattern, countRows, newestFirstTab } from "./list-query.server";
import { paymentFilters } from "./payments-tab";

// Pagos: every payment, newest first.

export const paymentsTab = newestFirstTab(payments, {
  filter(_db, { search, status }) {
    const state = choiceIn(paymentFilters, status);
    return and(
      state === "all" ? undefined : eq(payments.status, state),
      search ? ilike(searchText.payments(payments), containsPattern(search)) : undefined,
    );
  },
  /** Without a search, payments are counted from the per-day totals: a few thousand rows. */
  async count(db, view, filter) {
    if (view.search) return countRows(db, payments, filter, true);
    const state = choiceIn(paymentFilters, view.status);
    const [row] = await db
      .select({ total: sum(paymentDayTotals.payments).mapWith(Number) })
      .from(paymentDayTotals)
      .where(state === "all" ? undefined : eq(paymentDayTotals.status, state));
    return { total: row?.total ?? 0, capped: false };
  },
  // Amounts as numbers a spreadsheet can add up; base and IVA are the invoice's (a payment not
  // yet invoiced has none), the total is what was charged.
  csvColumns: [
    ["Fecha", sqlCsvDateTime(payments.createdAt)],
    ["Email", sqlCsvText(payments.customerEmail)],
    ["Servicio", sqlCsvText(payments.serviceName)],
    ["Factura", sqlCsvText(invoices.number)],
    ["Base imponible (€)", sqlDecimalEuros(invoices.baseAmount)],
    ["IVA (€)", sqlDecimalEuros(invoices.vatAmount)],
    ["Total (€)", sqlDecimalEuros(payments.amount)],
    ["Estado", sqlOwnLabel(payments.status, purchaseStatuses, purchaseStatusLabel)],
  ],
  csvRows: (db, fields, where) =>
    db
      .select(fields)
      .from(payments)
      .leftJoin(
        invoices,
        and(eq(invoices.purchaseId, payments.purchaseId), eq(invoices.series, "F")),
      )
      .where(where)
      .$dynamic(),
});

export type PaymentRow = typeof payments.$inferSelect;
