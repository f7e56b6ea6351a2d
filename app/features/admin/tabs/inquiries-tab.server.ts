import { and, eq, ilike, isNotNull, isNull, sql } from "drizzle-orm";
import { serviceCodeLabel, serviceCodes } from "~/features/catalogue/services";
import type { Database } from "~/platform/db/client.server";
import { contactInquiries, searchText } from "~/platform/db/schema";
import { choiceIn } from "../admin-tabs";
import { sqlCsvText, sqlLabel, sqlCsvDateTime } from "./csv-cells.server";
import { inquiryFilters } from "./inquiries-tab";
import { containsPattern, newestFirstTab } from "./list-query.server";

// Consultas: the contact form's enquiries, newest first.

export const inquiriesTab = newestFirstTab(contactInquiries, {
  filter(_db, { search, status }) {
    const state = choiceIn(inquiryFilters, status);
    return and(
      state === "pending" ? isNull(contactInquiries.handledAt) : undefined,
      state === "handled" ? isNotNull(contactInquiries.handledAt) : undefined,
      search ? ilike(searchText.inquiries(contactInquiries), containsPattern(search)) : undefined,
    );
  },
  csvColumns: [
    ["Fecha", sqlCsvDateTime(contactInquiries.createdAt)],
    ["Nombre", sqlCsvText(contactInquiries.name)],
    ["Email", sqlCsvText(contactInquiries.email)],
    ["Servicio", sqlCsvText(sqlLabel(contactInquiries.service, serviceCodes, serviceCodeLabel))],
    ["Mensaje", sqlCsvText(contactInquiries.message)],
    ["Atendida", sql<string>`coalesce(${sqlCsvDateTime(contactInquiries.handledAt)}, 'No')`],
  ],
});

export type InquiryRow = typeof contactInquiries.$inferSelect;

/** The enquiry whose detail dialog is open. */
export async function inquiryById(db: Database, id: string): Promise<InquiryRow | null> {
  const [row] = await db.select().from(contactInquiries).where(eq(contactInquiries.id, id));
  return row ?? null;
}
