import { formatPrice, serviceCodeLabel } from "~/features/catalogue/services";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import { categoryLabel, priorityLabel, ticketStatusLabel } from "~/features/support/ticket-rules";
import { formatDate } from "~/ui/dates";
import type { AdminListing, AdminLists } from "./admin-data.server";
import type { AdminListTab } from "./admin-tabs";

type Column<Row> = [header: string, value: (row: Row) => string];

const csvColumns: { [Tab in AdminListTab]: Column<AdminLists[Tab][number]>[] } = {
  consultas: [
    ["Fecha", (row) => formatDate(row.createdAt, "shortDateTime")],
    ["Nombre", (row) => row.name],
    ["Email", (row) => row.email],
    ["Servicio", (row) => serviceCodeLabel(row.service)],
    ["Mensaje", (row) => row.message],
  ],
  pagos: [
    ["Fecha", (row) => formatDate(row.createdAt, "shortDateTime")],
    ["Email", (row) => row.customerEmail],
    ["Servicio", (row) => row.serviceName],
    ["Importe", (row) => formatPrice(row.amount, { cents: "always" })],
    ["Estado", (row) => purchaseStatusLabel(row.status)],
  ],
  tickets: [
    ["Número", (row) => row.ticketNumber],
    ["Asunto", (row) => row.subject],
    ["Categoría", (row) => categoryLabel(row.category)],
    ["Prioridad", (row) => priorityLabel(row.priority)],
    ["Estado", (row) => ticketStatusLabel(row.status)],
    ["Cliente", (row) => row.customerEmail],
    ["Creado", (row) => formatDate(row.createdAt, "shortDateTime")],
    ["Responder antes de", (row) => formatDate(row.firstResponseDueAt, "shortDateTime")],
    ["Vencido", (row) => (row.overdue ? "Sí" : "No")],
  ],
  usuarios: [
    ["Alta", (row) => formatDate(row.createdAt, "shortDateTime")],
    ["Email", (row) => row.email],
    ["Nombre", (row) => row.fullName ?? ""],
    ["Email verificado", (row) => (row.emailVerified ? "Sí" : "No")],
  ],
  clientes: [
    ["Email", (row) => row.email],
    ["Nombre", (row) => row.name ?? ""],
    ["Pedidos", (row) => String(row.totalOrders)],
    ["Total gastado", (row) => formatPrice(row.totalSpent, { cents: "always" })],
  ],
};

/**
 * One cell: quoted when it must be, and never read as a formula by a spreadsheet (a visitor's
 * name such as "=HYPERLINK(…)" stays text).
 */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The rows of a tab as the CSV a Spanish spreadsheet opens directly: semicolons, CRLF lines and
 * a UTF-8 byte order mark. The file is named after the tab and the day ("pagos-2026-11-22.csv").
 */
export function adminCsv(listing: AdminListing, today: Date): { fileName: string; body: string } {
  const lines = [headerLine(listing.tab), ...rowLines(listing)];
  return {
    fileName: `${listing.tab}-${today.toISOString().slice(0, 10)}.csv`,
    body: `\uFEFF${lines.join("\r\n")}\r\n`,
  };
}

function headerLine(tab: AdminListTab): string {
  return csvColumns[tab].map(([header]) => cell(header)).join(";");
}

function rowLines(listing: AdminListing): string[] {
  const line = <Row>(columns: Column<Row>[], row: Row) =>
    columns.map(([, value]) => cell(value(row))).join(";");
  switch (listing.tab) {
    case "consultas":
      return listing.rows.map((row) => line(csvColumns.consultas, row));
    case "pagos":
      return listing.rows.map((row) => line(csvColumns.pagos, row));
    case "tickets":
      return listing.rows.map((row) => line(csvColumns.tickets, row));
    case "usuarios":
      return listing.rows.map((row) => line(csvColumns.usuarios, row));
    case "clientes":
      return listing.rows.map((row) => line(csvColumns.clientes, row));
  }
}
