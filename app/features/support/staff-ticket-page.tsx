import { Save, Send } from "lucide-react";
import { Link } from "react-router";
import type { FormRefusal } from "~/platform/forms/form-answer";
import { Button } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import { FactList, type Fact } from "~/ui/signed-in/fact-list";
import { cardClasses, Select, TextArea } from "~/ui/form";
import { useIntentAnswer } from "~/ui/signed-in/intent-answer";
import { IntentForm } from "~/ui/signed-in/intent-form";
import { RecordPageHead } from "~/ui/signed-in/page-head";
import { SelectOptions } from "~/ui/signed-in/select-options";
import type { staffTicketPage } from "./staff-tickets.server";
import { AttachmentsField, TicketPriorityBadge, TicketStatusBadge } from "./support-ui";
import {
  categoryLabel,
  priorityLabel,
  supportMessages,
  ticketChangeSchema,
  ticketMessageSchema,
  ticketPriorities,
  ticketStatusLabel,
  ticketStatuses,
  TICKET_LIMITS,
} from "./ticket-rules";
import { FirstResponseDue, TicketConversation } from "./ticket-ui";

type StaffTicket = Awaited<ReturnType<typeof staffTicketPage>>;
type Ticket = StaffTicket["ticket"];
type Answer = FormRefusal | undefined;

const staffIntents = ["reply", "update"] as const;

const statusOptions = ticketStatuses.map((value) => ({ value, label: ticketStatusLabel(value) }));
const priorityOptions = ticketPriorities.map((value) => ({ value, label: priorityLabel(value) }));

/**
 * A ticket for staff (/admin/tickets/:ticketId): its facts, the conversation with a reply form,
 * and its status and priority.
 */
export function StaffTicketPage({
  thread: { ticket, messages },
  answer,
}: {
  thread: StaffTicket;
  answer: Answer;
}) {
  // Without JavaScript the router never saw which form was sent: the reply is the likelier one.
  const { sending, answerFor } = useIntentAnswer(staffIntents, "reply", answer);
  return (
    <>
      <RecordPageHead
        back={{ to: "/admin?tab=tickets", label: "Volver a Tickets" }}
        reference={ticket.ticketNumber}
        title={ticket.subject}
      >
        <div className="mt-3 flex flex-wrap gap-2">
          <TicketStatusBadge status={ticket.status} />
          <TicketPriorityBadge priority={ticket.priority} />
        </div>
      </RecordPageHead>

      {/* On a phone the facts come first, then the conversation, then the change of state. */}
      <div className="mt-8 grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr]">
        <div className="lg:col-start-2 lg:row-start-1">
          <TicketFacts ticket={ticket} />
        </div>
        <div className="space-y-8 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <div>
            <h2 className="mb-4 text-xl font-semibold">Conversación</h2>
            <TicketConversation messages={messages} reader="staff" />
          </div>
          <ReplyForm key={messages.length} busy={sending === "reply"} answer={answerFor("reply")} />
        </div>
        <div className="lg:col-start-2 lg:row-start-2">
          <ChangeForm
            key={`${ticket.status}-${ticket.priority}`}
            ticket={ticket}
            busy={sending === "update"}
            answer={answerFor("update")}
          />
        </div>
      </div>
    </>
  );
}

function TicketFacts({ ticket }: { ticket: Ticket }) {
  const facts: Fact[] = [
    {
      label: "Cliente",
      // The customer's staff page (decision 052): their purchases, invoices and other tickets.
      value: (
        <Link
          to={`/admin/clientes/${ticket.userId}`}
          className="wrap-anywhere font-semibold text-brand-700 underline"
        >
          {ticket.customerEmail}
        </Link>
      ),
    },
    { label: "Categoría", value: categoryLabel(ticket.category) },
    { label: "Prioridad", value: priorityLabel(ticket.priority) },
    { label: "Estado", value: ticketStatusLabel(ticket.status) },
    { label: "Compra", value: ticket.purchaseName ?? "Ninguna" },
    { label: "Creado", value: formatDate(ticket.createdAt, "shortDateTime") },
    {
      label: "Responder antes de",
      value: <FirstResponseDue dueAt={ticket.firstResponseDueAt} overdue={ticket.overdue} />,
    },
    {
      label: "Primera respuesta",
      value: ticket.firstStaffReplyAt
        ? formatDate(ticket.firstStaffReplyAt, "shortDateTime")
        : "Sin responder",
    },
  ];
  return (
    <div className={cardClasses}>
      <h2 className="text-lg font-semibold">Datos del ticket</h2>
      <FactList facts={facts} className="mt-4 space-y-3 text-sm" />
    </div>
  );
}

function ReplyForm({ busy, answer }: { busy: boolean; answer: Answer }) {
  return (
    <IntentForm
      intent="reply"
      heading="Responder al cliente"
      schema={ticketMessageSchema}
      messages={supportMessages}
      answer={answer}
      encType="multipart/form-data"
    >
      <TextArea
        label="Respuesta"
        name="message"
        defaultValue={answer?.values?.message}
        rows={6}
        maxLength={TICKET_LIMITS.messageMax}
        hint="El cliente recibirá un email con un enlace a la conversación."
      />
      <AttachmentsField />
      <Button type="submit" disabled={busy}>
        <Send className="size-4" aria-hidden />
        {busy ? "Enviando..." : "Enviar respuesta"}
      </Button>
    </IntentForm>
  );
}

function ChangeForm({ ticket, busy, answer }: { ticket: Ticket; busy: boolean; answer: Answer }) {
  return (
    <IntentForm
      intent="update"
      heading="Estado y prioridad"
      schema={ticketChangeSchema}
      messages={supportMessages}
      answer={answer}
    >
      <Select label="Estado" name="status" defaultValue={ticket.status}>
        <SelectOptions options={statusOptions} />
      </Select>
      <Select label="Prioridad" name="priority" defaultValue={ticket.priority}>
        <SelectOptions options={priorityOptions} />
      </Select>
      <Button type="submit" variant="secondary" disabled={busy}>
        <Save className="size-4" aria-hidden />
        {busy ? "Guardando..." : "Guardar cambios"}
      </Button>
    </IntentForm>
  );
}
