import type { Route } from "./+types/admin-exportar";
import { requireAdmin } from "~/features/identity/session.server";
import { adminExport } from "~/features/admin/admin-csv.server";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return adminExport(new URL(request.url));
}
