import type { Route } from "./+types/mi-cuenta-factura";
import { requireCustomer } from "~/features/identity/session.server";
import { customerInvoiceDownload } from "~/features/billing/invoices.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  return customerInvoiceDownload(await requireCustomer(request), params.invoiceId);
}
