import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import type { CustomerRow } from "./customers-tab.server";
import { EmailText } from "~/ui/signed-in/email-text";
import { ListTable, type Column } from "./list-table";

const allColumns: Column<CustomerRow>[] = [
  {
    header: "Email",
    cell: (customer) => (
      <Link
        to={`/admin/clientes/${customer.id}`}
        className="font-semibold text-brand-700 underline"
      >
        <EmailText email={customer.email} />
      </Link>
    ),
  },
  { header: "Nombre", cell: (customer) => customer.name ?? "—" },
  { header: "Pedidos", className: "tabular-nums", cell: (customer) => customer.totalOrders },
  {
    header: "Total gastado",
    className: "whitespace-nowrap tabular-nums",
    cell: (customer) =>
      customer.totalSpent === null ? "—" : formatPrice(customer.totalSpent, { cents: "always" }),
  },
];

const withoutMoney = allColumns.filter((column) => column.header !== "Total gastado");

/** Customers with their orders and, for a role that sees money, what they spent. */
export function CustomersTable({ rows, seesMoney }: { rows: CustomerRow[]; seesMoney: boolean }) {
  return (
    <ListTable caption="Clientes" columns={seesMoney ? allColumns : withoutMoney} rows={rows} />
  );
}
