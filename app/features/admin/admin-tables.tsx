import type { ReactNode } from "react";
import type { AdminListTab } from "./admin-tabs";
import type { AdminListing, AdminLists } from "./tabs/list-tabs.server";
import { CustomersTable } from "./tabs/customers-table";
import { InquiriesTable } from "./tabs/inquiries-table";
import { PaymentsTable } from "./tabs/payments-table";
import { TicketsTable } from "./tabs/tickets-table";
import { UsersTable } from "./tabs/users-table";

type TableContext = {
  /** The signed-in staff member: their own row offers no change of role. */
  selfId: string;
  /** The address of the list with an enquiry's dialog open. */
  inquiryHref: (inquiryId: string) => string;
  /** Whether the viewer's role sees money (`payments.view`): Clientes' totals. */
  seesMoney: boolean;
};

/** Each list tab's table by its id. */
const listTables: {
  [Tab in AdminListTab]: (props: TableContext & { rows: AdminLists[Tab] }) => ReactNode;
} = {
  consultas: ({ rows, inquiryHref }) => <InquiriesTable rows={rows} inquiryHref={inquiryHref} />,
  pagos: ({ rows }) => <PaymentsTable rows={rows} caption="Pagos" />,
  tickets: ({ rows }) => <TicketsTable rows={rows} caption="Tickets" />,
  usuarios: ({ rows, selfId }) => <UsersTable rows={rows} selfId={selfId} />,
  clientes: ({ rows, seesMoney }) => <CustomersTable rows={rows} seesMoney={seesMoney} />,
};

function tableOf<Tab extends AdminListTab>(
  listing: { tab: Tab; rows: AdminLists[Tab] },
  context: TableContext,
): ReactNode {
  return listTables[listing.tab]({ ...context, rows: listing.rows });
}

/** The rows of the list tab on screen. */
export function AdminListingTable({
  listing,
  ...context
}: TableContext & { listing: AdminListing }) {
  return tableOf(listing, context);
}
