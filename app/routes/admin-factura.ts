import type { Route } from "./+types/admin-factura";
import { requireAdmin } from "~/features/accounts/session.server";
import { staffInvoiceDownload } from "~/features/payments/invoices.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  return staffInvoiceDownload(params.invoiceId);
}
