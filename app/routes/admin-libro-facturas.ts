import type { Route } from "./+types/admin-libro-facturas";
import { requireAdmin } from "~/features/identity/session.server";
import { invoiceBookDownload } from "~/features/billing/invoice-book.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return invoiceBookDownload(new URL(request.url));
}
