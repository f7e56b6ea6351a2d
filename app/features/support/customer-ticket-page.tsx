import { CheckCircle2 } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import { cardClasses, FormAlert, TextArea } from "~/ui/form";
import { useIntentAnswer } from "~/ui/signed-in/intent-answer";
import type { CustomerTicket } from "./customer-tickets.server";
import { CustomerTicketForm, type TicketFormAnswer } from "./customer-ticket-form";
import { TicketPriorityBadge, TicketStatusBadge } from "./support-ui";
import {
  acceptsMessages,
  activeTicketStatuses,
  categoryLabel,
  supportMessages,
  TICKET_LIMITS,
  ticketMessageSchema,
} from "./ticket-rules";
import { TicketConversation } from "./ticket-ui";

type Ticket = CustomerTicket["ticket"];

const intents = ["resolve", "message"] as const;
type Intent = (typeof intents)[number];

/**
 * A customer's ticket: its facts, the conversation and a form to add a message (or why it takes
 * none). `back` is the way back to Mi Cuenta, which the route gives (Mi Cuenta builds on support).
 */
export function CustomerTicketPage({
  page: { ticket, messages },
  answer,
  back,
}: {
  page: CustomerTicket;
  answer: TicketFormAnswer;
  back: ReactNode;
}) {
  // A refused 'resolve' (the ticket was closed meanwhile) is shown by the message form too, so
  // the answer is not split by intent.
  const { sending } = useIntentAnswer(intents, "message", answer);
  return (
    <section className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      {back}
      <TicketHeader ticket={ticket} sending={sending} />

      <section aria-labelledby="conversacion" className="mt-8">
        <h2 id="conversacion" className="text-xl font-semibold">
          Conversación
        </h2>
        <div className="mt-4">
          <TicketConversation messages={messages} reader="customer" />
        </div>
      </section>

      {acceptsMessages(ticket.status) ? (
        <MessageForm answer={answer} busy={sending === "message"} />
      ) : (
        <FormAlert className="mt-8" reply={{ tone: "info", text: supportMessages.ticketClosed }} />
      )}
    </section>
  );
}

function TicketHeader({ ticket, sending }: { ticket: Ticket; sending: Intent | null }) {
  const resolvable = (activeTicketStatuses as readonly string[]).includes(ticket.status);
  return (
    <header className={`${cardClasses} mt-4`}>
      <p className="font-mono text-sm font-semibold text-slate-600">{ticket.ticketNumber}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight break-words">{ticket.subject}</h1>
      <TicketFacts ticket={ticket} />
      {resolvable ? (
        <Form method="post" className="mt-5">
          <input type="hidden" name="intent" value="resolve" />
          <Button type="submit" variant="secondary" disabled={sending === "resolve"}>
            <CheckCircle2 className="size-4" aria-hidden />
            Marcar como resuelto
          </Button>
        </Form>
      ) : null}
    </header>
  );
}

function TicketFacts({ ticket }: { ticket: Ticket }) {
  const facts = [
    { label: "Estado", value: <TicketStatusBadge status={ticket.status} /> },
    { label: "Prioridad", value: <TicketPriorityBadge priority={ticket.priority} /> },
    { label: "Categoría", value: categoryLabel(ticket.category) },
    { label: "Creado", value: formatDate(ticket.createdAt, "shortDateTime") },
    ...(ticket.purchaseName ? [{ label: "Compra", value: ticket.purchaseName, wide: true }] : []),
  ];
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
      {facts.map(({ label, value, wide }) => (
        <div key={label} className={wide ? "col-span-2 sm:col-span-4" : undefined}>
          <dt className="text-slate-500">{label}</dt>
          {/* The badges keep their own colours and weight. */}
          <dd className="mt-1 font-medium text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function MessageForm({ answer, busy }: { answer: TicketFormAnswer; busy: boolean }) {
  return (
    <section aria-labelledby="responder" className={`${cardClasses} mt-8`}>
      <h2 id="responder" className="text-lg font-semibold">
        Añadir un mensaje
      </h2>
      <CustomerTicketForm
        schema={ticketMessageSchema}
        answer={answer}
        aria-labelledby="responder"
        className="mt-4 grid gap-4"
        sendLabel="Enviar mensaje"
        busy={busy}
      >
        <input type="hidden" name="intent" value="message" />
        <TextArea
          label="Mensaje"
          name="message"
          defaultValue={answer?.values?.message}
          rows={5}
          required
          minLength={TICKET_LIMITS.messageMin}
          maxLength={TICKET_LIMITS.messageMax}
        />
      </CustomerTicketForm>
    </section>
  );
}
