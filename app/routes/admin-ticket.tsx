import type { Route } from "./+types/admin-ticket";
import { requireStaff } from "~/features/identity/session.server";
import { privatePageMeta } from "~/features/seo/meta";
import { staffTicketAction, staffTicketPage } from "~/features/support/staff-tickets.server";
import { StaffTicketPage } from "~/features/support/staff-ticket-page";

export const meta: Route.MetaFunction = ({ matches, data }) =>
  privatePageMeta(matches, {
    title: data ? `Ticket ${data.ticket.ticketNumber}` : "Ticket",
    description: "Panel interno.",
    path: data ? `/admin/tickets/${data.ticket.id}` : "/admin",
  });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff({ request, context }, "tickets.view");
  return staffTicketPage(params.ticketId);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requireStaff({ request, context }, "tickets.answer");
  return staffTicketAction(request, staff, params.ticketId);
}

export default function StaffTicket({ loaderData, actionData }: Route.ComponentProps) {
  return <StaffTicketPage thread={loaderData} answer={actionData} />;
}
