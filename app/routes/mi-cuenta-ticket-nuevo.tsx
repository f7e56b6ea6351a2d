import type { Route } from "./+types/mi-cuenta-ticket-nuevo";
import { BackToSupport } from "~/features/customer-area/back-to-support";
import { requireCustomer } from "~/features/identity/session.server";
import { privatePageMeta } from "~/features/seo/meta";
import { createTicketAction, newTicketPage } from "~/features/support/customer-tickets.server";
import { NewTicketPage } from "~/features/support/new-ticket-page";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Nuevo ticket",
    description: "Pide ayuda a nuestro equipo de soporte.",
    path: "/mi-cuenta/tickets/nuevo",
  });

export async function loader({ request }: Route.LoaderArgs) {
  return newTicketPage(await requireCustomer(request), new URL(request.url));
}

export async function action({ request }: Route.ActionArgs) {
  return createTicketAction(request, await requireCustomer(request));
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  return <NewTicketPage page={loaderData} answer={actionData} back={<BackToSupport />} />;
}
