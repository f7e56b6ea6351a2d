import type { Route } from "./+types/mi-cuenta-factura";
import { requireCustomer } from "~/features/accounts/session.server";
import { customerInvoiceDownload } from "~/features/payments/invoices.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  return customerInvoiceDownload(await requireCustomer(request), params.invoiceId);
}
