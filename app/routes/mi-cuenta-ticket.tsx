import type { Route } from "./+types/mi-cuenta-ticket";
import { BackToSupport } from "~/features/customer-area/back-to-support";
import { requireCustomer } from "~/features/identity/session.server";
import { privatePageMeta } from "~/features/seo/meta";
import { CustomerTicketPage } from "~/features/support/customer-ticket-page";
import {
  customerTicketAction,
  customerTicketPage,
} from "~/features/support/customer-tickets.server";

export const meta: Route.MetaFunction = ({ matches, data }) =>
  privatePageMeta(matches, {
    title: data ? `Ticket ${data.ticket.ticketNumber}` : "Ticket",
    description: "Tu ticket de soporte.",
    path: "/mi-cuenta/tickets",
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return customerTicketPage(await requireCustomer(request), params.ticketId);
}

export async function action({ request, params }: Route.ActionArgs) {
  return customerTicketAction(request, await requireCustomer(request), params.ticketId);
}

export default function CustomerTicket({ loaderData, actionData }: Route.ComponentProps) {
  return <CustomerTicketPage page={loaderData} answer={actionData} back={<BackToSupport />} />;
}
