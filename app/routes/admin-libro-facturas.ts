import type { Route } from "./+types/admin-libro-facturas";
import { requireStaff } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { staffInvoiceBookDownload } from "~/features/billing/invoice-book.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff({ request, context }, "payments.export");
  // A whole file of the company's data leaves with it: proved again first (decision 063).
  await requireRecentAuthentication(request, { fallback: "/admin?tab=pagos", download: true });
  return staffInvoiceBookDownload(new URL(request.url), staff);
}
