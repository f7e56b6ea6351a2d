import type { Route } from "./+types/admin-libro-facturas";
import { requireStaff } from "~/features/identity/session.server";
import { staffInvoiceBookDownload } from "~/features/billing/invoice-book.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff({ request, context }, "payments.export");
  return staffInvoiceBookDownload(new URL(request.url), staff);
}
