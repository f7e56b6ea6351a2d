import { ArrowLeft, Save, Send } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin-ticket";
import { requireAdmin } from "~/features/identity/session.server";
import { AdminErrorPage, AdminShell, adminShellHandle } from "~/features/admin/admin-shell";
import { pageMeta } from "~/features/seo/meta";
import { FirstResponseDue, TicketConversation } from "~/features/support/ticket-ui";
import {
  AttachmentsField,
  TicketPriorityBadge,
  TicketStatusBadge,
} from "~/features/support/support-ui";
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
} from "~/features/support/ticket-rules";
import { staffTicketAction, staffTicketPage } from "~/features/support/staff-tickets.server";
import { Button } from "~/ui/button";
import type { z } from "~/platform/validation/zod";
import { formatDate } from "~/ui/dates";
import { cardClasses, Select, TextArea, ValidatedForm } from "~/ui/form";

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, {
    title: data ? `Ticket ${data.ticket.ticketNumber}` : "Ticket",
    description: "Panel interno.",
    path: data ? `/admin/tickets/${data.ticket.id}` : "/admin",
    noIndex: true,
  });

export const handle = adminShellHandle;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  return staffTicketPage(params.ticketId);
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return staffTicketAction(request, admin, params.ticketId);
}

export function ErrorBoundary() {
  return <AdminErrorPage />;
}

type Intent = "reply" | "update";
type Answer = Route.ComponentProps["actionData"];
type Ticket = Route.ComponentProps["loaderData"]["ticket"];

export default function StaffTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { ticket, messages } = loaderData;
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  // Two forms share one action: its answer belongs to the form that was sent last (the reply
  // form when the page was posted without JavaScript and said nothing).
  const [lastIntent, setLastIntent] = useState<Intent>("reply");
  if ((sending === "reply" || sending === "update") && sending !== lastIntent)
    setLastIntent(sending);
  const answerFor = (intent: Intent) => (intent === lastIntent ? actionData : undefined);

  return (
    <AdminShell current="tickets">
      <Link
        to="/admin?tab=tickets"
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Volver a Tickets
      </Link>
      <p className="mt-5 font-mono text-sm font-semibold text-slate-600">{ticket.ticketNumber}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight break-words sm:text-3xl">
        {ticket.subject}
      </h1>
      <div className="mt-3 flex flex-wrap gap-2">
        <TicketStatusBadge status={ticket.status} />
        <TicketPriorityBadge priority={ticket.priority} />
      </div>

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
    </AdminShell>
  );
}

function TicketFacts({ ticket }: { ticket: Ticket }) {
  const facts = [
    { label: "Cliente", value: <span className="wrap-anywhere">{ticket.customerEmail}</span> },
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
      <dl className="mt-4 space-y-3 text-sm">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt className="text-slate-600">{fact.label}</dt>
            <dd className="mt-0.5 font-medium text-ink">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** One of the page's two forms: a card with its heading, sending `intent` to the action. */
function StaffForm<T>({
  schema,
  intent,
  heading,
  answer,
  encType,
  children,
}: {
  schema: z.ZodMiniType<T>;
  intent: Intent;
  heading: string;
  answer: Answer;
  encType?: "multipart/form-data";
  children: ReactNode;
}) {
  const headingId = `${intent}-heading`;
  return (
    <ValidatedForm
      schema={schema}
      messages={supportMessages}
      answer={answer}
      encType={encType}
      className={`${cardClasses} space-y-4`}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {heading}
      </h2>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </ValidatedForm>
  );
}

function ReplyForm({ busy, answer }: { busy: boolean; answer: Answer }) {
  return (
    <StaffForm
      schema={ticketMessageSchema}
      intent="reply"
      heading="Responder al cliente"
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
    </StaffForm>
  );
}

function ChangeForm({ ticket, busy, answer }: { ticket: Ticket; busy: boolean; answer: Answer }) {
  return (
    <StaffForm
      schema={ticketChangeSchema}
      intent="update"
      heading="Estado y prioridad"
      answer={answer}
    >
      <Select label="Estado" name="status" defaultValue={ticket.status}>
        {ticketStatuses.map((status) => (
          <option key={status} value={status}>
            {ticketStatusLabel(status)}
          </option>
        ))}
      </Select>
      <Select label="Prioridad" name="priority" defaultValue={ticket.priority}>
        {ticketPriorities.map((priority) => (
          <option key={priority} value={priority}>
            {priorityLabel(priority)}
          </option>
        ))}
      </Select>
      <Button type="submit" variant="secondary" disabled={busy}>
        <Save className="size-4" aria-hidden />
        {busy ? "Guardando..." : "Guardar cambios"}
      </Button>
    </StaffForm>
  );
}
