import type { Database } from "~/platform/db/client.server";
import type { AdminListTab, AdminView } from "../admin-tabs";
import { customersTab, type CustomerRow } from "./customers-tab.server";
import { inquiriesTab, type InquiryRow } from "./inquiries-tab.server";
import { paged, type ListTab, type Page, type RowCount } from "./list-query.server";
import { paymentsTab, type PaymentRow } from "./payments-tab.server";
import { ticketsTab, type TicketRow } from "./tickets-tab.server";
import { usersTab, type UserRow } from "./users-tab.server";

/** The row each list tab shows. */
type AdminRows = {
  consultas: InquiryRow;
  pagos: PaymentRow;
  tickets: TicketRow;
  usuarios: UserRow;
  clientes: CustomerRow;
};

/** Each list tab by its id: the panel's page, its count and its CSV choose by this. */
export const listTabs: { [Tab in AdminListTab]: ListTab<AdminRows[Tab]> } = {
  consultas: inquiriesTab,
  pagos: paymentsTab,
  tickets: ticketsTab,
  usuarios: usersTab,
  clientes: customersTab,
};

export type AdminLists = { [Tab in AdminListTab]: AdminRows[Tab][] };

/** A page of a list tab, tagged with the tab so each keeps its own row type. */
export type AdminListing = {
  [Tab in AdminListTab]: { tab: Tab; rows: AdminLists[Tab]; page: Page };
}[AdminListTab];

type ListView<Tab extends AdminListTab> = AdminView & { tab: Tab };

async function listOf<Tab extends AdminListTab>(db: Database, view: ListView<Tab>) {
  const list = listTabs[view.tab];
  const filter = list.filter(db, view);
  const { rows, page } = await paged(view, list.count(db, view, filter), (window) =>
    list.rows(db, filter, window, view.order),
  );
  return { tab: view.tab, rows, page };
}

export async function listTab(
  db: Database,
  view: AdminView & { tab: AdminListTab },
): Promise<AdminListing> {
  return (await listOf(db, view)) as AdminListing;
}

/** How many rows the list of `view` has: exact, or capped when searching. */
export function countList(
  db: Database,
  view: AdminView & { tab: AdminListTab },
): Promise<RowCount> {
  const list = listTabs[view.tab];
  return list.count(db, view, list.filter(db, view));
}
