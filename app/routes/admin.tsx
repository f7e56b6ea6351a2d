import { desc } from "drizzle-orm";
import { LogOut } from "lucide-react";
import { Form } from "react-router";
import type { Route } from "./+types/admin";
import { requireAdmin } from "~/features/accounts/session.server";
import { serviceCodeLabel } from "~/features/catalogue/services";
import { pageMeta } from "~/features/seo/meta";
import { getDb } from "~/platform/db/database.server";
import { contactInquiries } from "~/platform/db/schema";
import { Button } from "~/ui/button";
import { RefreshButton } from "~/ui/refresh-button";
import { EmptyTableRow } from "~/ui/empty-table-row";
import { formatDate } from "~/ui/dates";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Panel de Administración",
    description: "Panel interno.",
    path: "/admin",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const inquiries = await getDb()
    .select()
    .from(contactInquiries)
    .orderBy(desc(contactInquiries.createdAt))
    .limit(20);
  return { admin, inquiries };
}

/** The first view of the admin panel: the latest enquiries. The full panel is its own issue. */
export default function AdminPanel({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Panel de Administración</h1>
          <p className="text-slate-600">{loaderData.admin.email}</p>
        </div>
        <div className="flex gap-2">
          <RefreshButton label="Actualizar" />
          <Form method="post" action="/cerrar-sesion">
            <Button type="submit" variant="ghost">
              <LogOut className="size-4" aria-hidden />
              Salir
            </Button>
          </Form>
        </div>
      </div>
      <h2 className="mt-10 text-xl font-semibold">Últimas consultas</h2>
      <div className="mt-4 overflow-x-auto rounded-xl ring-1 ring-slate-200">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Fecha
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Nombre
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Email
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Servicio
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {loaderData.inquiries.map((inquiry) => (
              <tr key={inquiry.id}>
                <td className="px-4 py-3 whitespace-nowrap">
                  {formatDate(inquiry.createdAt, "shortDateTime")}
                </td>
                <td className="px-4 py-3">{inquiry.name}</td>
                <td className="px-4 py-3">{inquiry.email}</td>
                <td className="px-4 py-3">{serviceCodeLabel(inquiry.service)}</td>
              </tr>
            ))}
            {loaderData.inquiries.length === 0 ? (
              <EmptyTableRow columns={4}>Todavía no hay consultas.</EmptyTableRow>
            ) : null}
          </tbody>
        </table>
      </div>
    </section>
  );
}
