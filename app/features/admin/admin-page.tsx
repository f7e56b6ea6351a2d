import { Search } from "lucide-react";
import { useEffect, useMemo } from "react";
import { Form } from "react-router";
import { InvoiceBookForm } from "~/features/billing/invoice-book-form";
import { staffCan, type StaffRole } from "~/features/identity/staff-roles";
import { replyOf, type FormRefusal } from "~/platform/forms/form-answer";
import { Button } from "~/ui/button";
import { DownloadLink } from "~/ui/signed-in/download-link";
import { Field, FormAlert, Select } from "~/ui/form";
import { Pagination } from "~/ui/signed-in/pagination";
import { SelectOptions } from "~/ui/signed-in/select-options";
import { showToast } from "~/ui/toast";
import { useHydrated } from "~/ui/use-hydrated";
import { AdminAnalyticsSection } from "./admin-analytics";
import { AdminDashboard } from "./admin-dashboard";
import { adminMessages } from "./admin-messages";
import type { staffPanel } from "./admin-panel.server";
import { PageHeader } from "~/ui/signed-in/page-header";
import { AdminListingTable } from "./admin-tables";
import {
  adminQuery,
  adminTabs,
  exportCapabilities,
  isListTab,
  pageSizes,
  statusFiltersOf,
  type AdminView,
} from "./admin-tabs";
import { InquiryDialog } from "./inquiry-dialog";
import { ticketOrders } from "./tabs/tickets-tab";

type AdminPanel = Awaited<ReturnType<typeof staffPanel>>;
type Listing = NonNullable<AdminPanel["listing"]>;

const panelHref = (view: AdminView, changes: Parameters<typeof adminQuery>[1] = {}) =>
  `/admin?${adminQuery(view, changes)}`;

/**
 * /admin: the section's heading (with the CSV export of a list, when the role may export it),
 * then the dashboard, Analítica or a page of the section's list, and the enquiry whose dialog is
 * open. `staff` is the staff member viewing it: their own role the users' list does not offer to
 * change.
 */
export function AdminPage({
  panel,
  staff,
  answer,
}: {
  panel: AdminPanel;
  staff: { id: string; role: StaffRole };
  answer: FormRefusal | undefined;
}) {
  const { view, dashboard, analytics, listing, inquiry } = panel;
  const section = adminTabs.find((tab) => tab.id === view.tab)!;
  const selfId = staff.id;
  const exportable = isListTab(view.tab) && staffCan(staff.role, exportCapabilities[view.tab]);
  return (
    <>
      {inquiry ? (
        <InquiryDialog
          key={inquiry.id}
          inquiry={inquiry}
          closeHref={panelHref(view, { inquiryId: null })}
        />
      ) : null}
      <PageHeader title={section.label}>
        {view.tab === "pagos" && staffCan(staff.role, "payments.export") ? (
          <InvoiceBookForm />
        ) : null}
        {listing && exportable ? <ExportLink view={view} /> : null}
      </PageHeader>
      <Refusal answer={answer} />
      {dashboard ? (
        <AdminDashboard figures={dashboard} />
      ) : analytics ? (
        <AdminAnalyticsSection report={analytics} />
      ) : listing ? (
        <ListingSection
          view={view}
          listing={listing}
          selfId={selfId}
          seesMoney={staffCan(staff.role, "payments.view")}
        />
      ) : null}
    </>
  );
}

/** A refused change: a toast once the page runs JavaScript, the message in the page before. */
function Refusal({ answer }: { answer: FormRefusal | undefined }) {
  const refusal = useMemo(() => replyOf(answer, adminMessages), [answer]);
  const hydrated = useHydrated();
  useEffect(() => {
    if (refusal) void showToast(refusal.tone, refusal.text);
  }, [refusal]);
  return refusal && !hydrated ? <FormAlert reply={refusal} className="mt-4" /> : null;
}

function ListingSection({
  view,
  listing,
  selfId,
  seesMoney,
}: {
  view: AdminView;
  listing: Listing;
  selfId: string;
  seesMoney: boolean;
}) {
  return (
    <>
      <ListControls view={view} />
      <AdminListingTable
        listing={listing}
        selfId={selfId}
        seesMoney={seesMoney}
        inquiryHref={(inquiryId) => panelHref(view, { inquiryId })}
      />
      <Pagination
        page={listing.page.number}
        pages={listing.page.pages}
        size={listing.page.size}
        total={listing.page.total}
        capped={listing.page.totalCapped}
        hrefOf={(page) => panelHref(view, { page, inquiryId: null })}
        className="mt-4"
      />
    </>
  );
}

/** The CSV of the list with its search, filter and order (every page). */
function ExportLink({ view }: { view: AdminView }) {
  return (
    <DownloadLink
      href={`/admin/exportar?${adminQuery(view, { paging: false })}`}
      label="Exportar CSV"
      busyLabel="Exportando…"
      countRows
      fallbackName={`${view.tab}.csv`}
      succeeded={{ title: "CSV exportado" }}
      failed={{ title: "Error al exportar", description: "Por favor, inténtalo de nuevo." }}
    />
  );
}

/** The list's search form (GET): a new search, filter or page size starts at page 1. */
function ListControls({ view }: { view: AdminView }) {
  const filters = statusFiltersOf(view.tab);
  const tickets = view.tab === "tickets";
  return (
    // Keyed by the view: another tab starts with an empty search, as the spec asks.
    <Form
      key={adminQuery(view, { paging: false })}
      method="get"
      className="mt-5 flex flex-wrap items-end gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      role="search"
    >
      <input type="hidden" name="tab" value={view.tab} />
      <Field
        label="Buscar"
        frameClassName="w-full sm:w-64"
        type="search"
        name="q"
        defaultValue={view.search}
        maxLength={100}
      />
      {filters ? (
        <Select label="Estado" name="estado" defaultValue={view.status}>
          <SelectOptions options={filters} />
        </Select>
      ) : null}
      {tickets ? (
        <Select label="Orden" name="orden" defaultValue={view.order}>
          <SelectOptions options={ticketOrders} />
        </Select>
      ) : null}
      <Select label="Por página" name="por" defaultValue={String(view.pageSize)}>
        {pageSizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </Select>
      <Button type="submit" variant="secondary">
        <Search className="size-4" aria-hidden />
        Buscar
      </Button>
    </Form>
  );
}
