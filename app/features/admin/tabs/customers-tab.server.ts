import { ilike, sql } from "drizzle-orm";
import { customers, searchText } from "~/platform/db/schema";
import { sqlCsvText, sqlEuros } from "./csv-cells.server";
import { containsPattern, newestFirstTab } from "./list-query.server";

// Clientes: one row per billing address with its totals, newest first.

export const customersTab = newestFirstTab(customers, {
  filter: (_db, { search }) =>
    search ? ilike(searchText.customers(customers), containsPattern(search)) : undefined,
  csvColumns: [
    ["Email", sqlCsvText(customers.email)],
    ["Nombre", sqlCsvText(customers.name)],
    ["Pedidos", sql<string>`${customers.totalOrders}::text`],
    ["Total gastado", sqlEuros(customers.totalSpent)],
  ],
});

/** A customer's row; `totalSpent` is null for a role that may not see money (Soporte). */
export type CustomerRow = Omit<typeof customers.$inferSelect, "totalSpent"> & {
  totalSpent: number | null;
};
