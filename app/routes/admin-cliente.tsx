import type { Route } from "./+types/admin-cliente";
import { requireStaff } from "~/features/identity/session.server";
import { staffCustomerPage } from "~/features/admin/customer-page.server";
import { StaffCustomerPage } from "~/features/admin/customer-page";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches, data, params }) =>
  privatePageMeta(matches, {
    // The title is in the browser's history and tabs: the customer's name, not their e-mail.
    title: data?.name ? `Cliente: ${data.name}` : "Cliente",
    description: "Panel interno.",
    path: `/admin/clientes/${params.customerId}`,
  });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Anyone who reads Clientes; the feature leaves out what the role may not see (money, tickets).
  const staff = await requireStaff({ request, context }, "customers.view");
  return staffCustomerPage(staff, params.customerId);
}

export default function StaffCustomer({ loaderData }: Route.ComponentProps) {
  return <StaffCustomerPage customer={loaderData} />;
}
