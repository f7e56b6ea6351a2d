import type { Route } from "./+types/admin-factura";
import { requireAdmin } from "~/features/identity/session.server";
import { staffInvoiceDownload } from "~/features/billing/invoices.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  return staffInvoiceDownload(params.invoiceId);
}
