import type { Route } from "./+types/admin-exportar";
import { requireStaff } from "~/features/identity/session.server";
import { staffExport } from "~/features/admin/admin-csv.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  // Each tab's CSV needs its own capability: the feature checks it.
  const staff = await requireStaff({ request, context });
  return staffExport(new URL(request.url), staff);
}
