import { Search } from "lucide-react";
import { useEffect, useMemo } from "react";
import { Form } from "react-router";
import type { Route } from "./+types/admin";
import { requireAdmin } from "~/features/identity/session.server";
import { adminAction } from "~/features/admin/admin-actions.server";
import { adminPanel } from "~/features/admin/admin-panel.server";
import { AdminAnalyticsSection } from "~/features/admin/admin-analytics";
import { AdminDashboard } from "~/features/admin/admin-dashboard";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";
import { AdminListingTable } from "~/features/admin/admin-tables";
import {
  adminQuery,
  adminTabs,
  pageSizes,
  statusFiltersOf,
  type AdminView,
} from "~/features/admin/admin-tabs";
import { ticketOrders } from "~/features/admin/tabs/tickets-tab";
import { InquiryDialog } from "~/features/admin/inquiry-dialog";
import { adminMessages } from "~/features/admin/admin-messages";
import { pageMeta } from "~/features/seo/meta";
import { replyOf } from "~/platform/forms/form-answer";
import { Button } from "~/ui/button";
import { DownloadLink } from "~/ui/download-link";
import { Field, FormAlert, Select } from "~/ui/form";
import { Pagination } from "~/ui/pagination";
import { showToast } from "~/ui/toast";
import { useHydrated } from "~/ui/use-hydrated";

export const handle = adminShellHandle;

export const meta: Route.MetaFunction = ({ matches, data }) => {
  const section = adminTabs.find((tab) => tab.id === data?.view.tab);
  return pageMeta(matches, {
    title:
      section && section.id !== "dashboard"
        ? `${section.label} · Panel de Administración`
        : "Panel de Administración",
    description: "Panel interno.",
    path: "/admin",
    noIndex: true,
  });
};

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return { admin, ...(await adminPanel(new URL(request.url))) };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return adminAction(request, admin);
}

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

const panelHref = (view: AdminView, changes: Parameters<typeof adminQuery>[1] = {}) =>
  `/admin?${adminQuery(view, changes)}`;

export default function AdminPanel({ loaderData, actionData }: Route.ComponentProps) {
  const { admin, view, dashboard, analytics, listing, inquiry } = loaderData;
  const section = adminTabs.find((tab) => tab.id === view.tab)!;
  // A refused change: a toast once the page runs JavaScript, the message in the page before.
  const refusal = useMemo(() => replyOf(actionData, adminMessages), [actionData]);
  const hydrated = useHydrated();
  useEffect(() => {
    if (refusal) void showToast(refusal.tone, refusal.text);
  }, [refusal]);
  return (
    <AdminShell current={view.tab}>
      {inquiry ? (
        <InquiryDialog
          key={inquiry.id}
          inquiry={inquiry}
          closeHref={panelHref(view, { inquiryId: null })}
        />
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">{section.label}</h1>
        {listing ? <ExportLink view={view} /> : null}
      </div>
      {refusal && !hydrated ? <FormAlert reply={refusal} className="mt-4" /> : null}
      {dashboard ? (
        <AdminDashboard figures={dashboard} />
      ) : analytics ? (
        <AdminAnalyticsSection report={analytics} />
      ) : listing ? (
        <>
          <ListControls view={view} />
          <AdminListingTable
            listing={listing}
            selfId={admin.id}
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
      ) : null}
    </AdminShell>
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
          {filters.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </Select>
      ) : null}
      {tickets ? (
        <Select label="Orden" name="orden" defaultValue={view.order}>
          {ticketOrders.map((order) => (
            <option key={order.value} value={order.value}>
              {order.label}
            </option>
          ))}
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
