import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import type { CustomerRow } from "./customers-tab.server";
import { EmailText, ListTable, type Column } from "./list-table";

const columns: Column<CustomerRow>[] = [
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
    cell: (customer) => formatPrice(customer.totalSpent, { cents: "always" }),
  },
];

/** Customers with their orders and what they spent. */
export function CustomersTable({ rows }: { rows: CustomerRow[] }) {
  return <ListTable caption="Clientes" columns={columns} rows={rows} />;
}
