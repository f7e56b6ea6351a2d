import { BackToSupport } from "~/features/customer-area/account-area";
import { CheckCircle2 } from "lucide-react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/mi-cuenta-ticket";
import { requireCustomer } from "~/features/identity/session.server";
import { pageMeta } from "~/features/seo/meta";
import {
  AttachmentsField,
  TicketPriorityBadge,
  TicketStatusBadge,
} from "~/features/support/support-ui";
import {
  acceptsMessages,
  activeTicketStatuses,
  categoryLabel,
  supportMessages,
  TICKET_LIMITS,
  ticketMessageSchema,
} from "~/features/support/ticket-rules";
import { TicketConversation } from "~/features/support/ticket-ui";
import {
  customerTicketAction,
  customerTicketPage,
} from "~/features/support/customer-tickets.server";
import { Button } from "~/ui/button";
import { formatDate } from "~/ui/dates";
import { cardClasses, FormAlert, TextArea, ValidatedForm } from "~/ui/form";

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, {
    title: data ? `Ticket ${data.ticket.ticketNumber}` : "Ticket",
    description: "Tu ticket de soporte.",
    path: "/mi-cuenta/tickets",
    noIndex: true,
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return customerTicketPage(await requireCustomer(request), params.ticketId);
}

export async function action({ request, params }: Route.ActionArgs) {
  return customerTicketAction(request, await requireCustomer(request), params.ticketId);
}

export default function CustomerTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { ticket, messages } = loaderData;
  const navigation = useNavigation();
  const busyWith = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const open = acceptsMessages(ticket.status);
  const resolvable = (activeTicketStatuses as readonly string[]).includes(ticket.status);
  return (
    <section className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <BackToSupport />

      <header className={`${cardClasses} mt-4`}>
        <p className="font-mono text-sm font-semibold text-slate-600">{ticket.ticketNumber}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight break-words">{ticket.subject}</h1>
        <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-500">Estado</dt>
            <dd className="mt-1">
              <TicketStatusBadge status={ticket.status} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Prioridad</dt>
            <dd className="mt-1">
              <TicketPriorityBadge priority={ticket.priority} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Categoría</dt>
            <dd className="mt-1 font-medium text-ink">{categoryLabel(ticket.category)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Creado</dt>
            <dd className="mt-1 font-medium text-ink">
              {formatDate(ticket.createdAt, "shortDateTime")}
            </dd>
          </div>
          {ticket.purchaseName ? (
            <div className="col-span-2 sm:col-span-4">
              <dt className="text-slate-500">Compra</dt>
              <dd className="mt-1 font-medium text-ink">{ticket.purchaseName}</dd>
            </div>
          ) : null}
        </dl>
        {resolvable ? (
          <Form method="post" className="mt-5">
            <input type="hidden" name="intent" value="resolve" />
            <Button type="submit" variant="secondary" disabled={busyWith === "resolve"}>
              <CheckCircle2 className="size-4" aria-hidden />
              Marcar como resuelto
            </Button>
          </Form>
        ) : null}
      </header>

      <section aria-labelledby="conversacion" className="mt-8">
        <h2 id="conversacion" className="text-xl font-semibold">
          Conversación
        </h2>
        <div className="mt-4">
          <TicketConversation messages={messages} reader="customer" />
        </div>
      </section>

      {open ? (
        <section aria-labelledby="responder" className={`${cardClasses} mt-8`}>
          <h2 id="responder" className="text-lg font-semibold">
            Añadir un mensaje
          </h2>
          <ValidatedForm
            schema={ticketMessageSchema}
            messages={supportMessages}
            answer={actionData}
            aria-labelledby="responder"
            encType="multipart/form-data"
            className="mt-4 grid gap-4"
          >
            <input type="hidden" name="intent" value="message" />
            <TextArea
              label="Mensaje"
              name="message"
              defaultValue={actionData?.values?.message}
              rows={5}
              required
              minLength={TICKET_LIMITS.messageMin}
              maxLength={TICKET_LIMITS.messageMax}
            />
            <AttachmentsField />
            <div>
              <Button type="submit" disabled={busyWith === "message"}>
                {busyWith === "message" ? "Enviando..." : "Enviar mensaje"}
              </Button>
            </div>
          </ValidatedForm>
        </section>
      ) : (
        <FormAlert className="mt-8" reply={{ tone: "info", text: supportMessages.ticketClosed }} />
      )}
    </section>
  );
}
