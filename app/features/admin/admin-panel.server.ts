import { redirect } from "react-router";
import { requireCapability, type Staff } from "~/features/identity/session.server";
import { staffCan } from "~/features/identity/staff-roles";
import { getDb } from "~/platform/db/database.server";
import { analyticsWithRevenue } from "./analytics-revenue.server";
import { adminTabs, adminViewFrom, sectionsFor } from "./admin-tabs";
import { dashboardFigures } from "./dashboard.server";
import { inquiryById } from "./tabs/inquiries-tab.server";
import { listTab } from "./tabs/list-tabs.server";

/**
 * The admin panel at `url`: the dashboard, or a page of the list of the tab in the address,
 * with the enquiry whose detail dialog is open.
 */
export async function adminPanel(url: URL) {
  const view = adminViewFrom(url);
  const db = getDb();
  if (view.tab === "dashboard")
    return {
      view,
      dashboard: await dashboardFigures(db),
      analytics: null,
      listing: null,
      inquiry: null,
    };
  if (view.tab === "analitica")
    return {
      view,
      dashboard: null,
      analytics: await analyticsWithRevenue(db, view.days),
      listing: null,
      inquiry: null,
    };
  const [listing, inquiry] = await Promise.all([
    listTab(db, { ...view, tab: view.tab }),
    view.inquiryId ? inquiryById(db, view.inquiryId) : null,
  ]);
  return {
    view: { ...view, page: listing.page.number },
    dashboard: null,
    analytics: null,
    listing,
    inquiry,
  };
}

/**
 * The panel as `staff` may see it: a tab their role may not open is refused (403), except the
 * dashboard, where /admin lands after sign-in: a role without it (support) is sent on to its
 * first section instead.
 */
export async function staffPanel(url: URL, staff: Pick<Staff, "role">) {
  const view = adminViewFrom(url);
  const { capability } = adminTabs.find((tab) => tab.id === view.tab)!;
  if (view.tab === "dashboard" && !staffCan(staff.role, capability)) {
    const first = sectionsFor(staff.role)[0];
    if (first) throw redirect(first.href);
  }
  requireCapability(staff, capability);
  const panel = await adminPanel(url);
  // The dashboard's latest tickets are for those who may open them (finance may not).
  if (panel.dashboard && !staffCan(staff.role, "tickets.view"))
    return { ...panel, dashboard: { ...panel.dashboard, latestTickets: null } };
  // What a customer spent is money: Soporte sees the customers, not their totals (issue 36).
  if (panel.listing?.tab === "clientes" && !staffCan(staff.role, "payments.view"))
    return {
      ...panel,
      listing: {
        ...panel.listing,
        rows: panel.listing.rows.map((row) => ({ ...row, totalSpent: null })),
      },
    };
  return panel;
}
