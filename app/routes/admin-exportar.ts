import type { Route } from "./+types/admin-exportar";
import { requireAdmin } from "~/features/accounts/session.server";
import { adminCsv } from "~/features/admin/admin-csv.server";
import { listTab } from "~/features/admin/admin-data.server";
import { adminViewFrom } from "~/features/admin/admin-tabs";
import { getDb } from "~/platform/db/database.server";

/** The CSV of the admin tab in the address, with the same search and filter as the screen. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const view = adminViewFrom(new URL(request.url));
  if (view.tab === "dashboard") return new Response("Not Found", { status: 404 });
  const { fileName, body } = adminCsv(
    await listTab(getDb(), { ...view, tab: view.tab }),
    new Date(),
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
