import type { Route } from "./+types/admin-exportar";
import { requireStaff } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { staffExport } from "~/features/admin/admin-csv.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  // Each tab's CSV needs its own capability: the feature checks it.
  const staff = await requireStaff({ request, context });
  // A whole file of the company's data leaves with it: proved again first (decision 063).
  await requireRecentAuthentication(request, { fallback: "/admin", download: true });
  return staffExport(new URL(request.url), staff);
}
