import { getDb } from "~/platform/db/database.server";
import { analyticsWithRevenue } from "./analytics-revenue.server";
import { adminViewFrom } from "./admin-tabs";
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
