import type { Route } from "./+types/admin-factura";
import { requireStaff } from "~/features/identity/session.server";
import { staffInvoiceDownload } from "~/features/billing/invoices.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "payments.view");
  return staffInvoiceDownload(params.invoiceId);
}
