import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { formatDate } from "~/platform/dates";
import { cardClasses, Field, Select, TextArea } from "~/ui/form";
import type { newTicketPage } from "./customer-tickets.server";
import { CustomerTicketForm, type TicketFormAnswer } from "./customer-ticket-form";
import {
  categoryLabel,
  newTicketSchema,
  priorityLabel,
  TICKET_LIMITS,
  ticketCategories,
  ticketPriorities,
} from "./ticket-rules";

type NewTicketChoices = Awaited<ReturnType<typeof newTicketPage>>;

/**
 * A customer opens a ticket, about one of their purchases or none. `back` is the way back to Mi
 * Cuenta, which the route gives (Mi Cuenta builds on support).
 */
export function NewTicketPage({
  page,
  answer,
  back,
}: {
  page: NewTicketChoices;
  answer: TicketFormAnswer;
  back: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      {back}
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Nuevo ticket</h1>
      <p className="mt-2 text-slate-600">
        Cuéntanos qué necesitas. Te responderemos en menos de 24 horas.
      </p>
      <div className={`${cardClasses} mt-6`}>
        <NewTicketForm page={page} answer={answer} />
      </div>
    </section>
  );
}

function NewTicketForm({ page, answer }: { page: NewTicketChoices; answer: TicketFormAnswer }) {
  // A refused form comes back with what was typed (without JavaScript the page is new).
  const typed = answer?.values ?? {};
  const sending = useNavigation().state === "submitting";
  return (
    <CustomerTicketForm
      schema={newTicketSchema}
      answer={answer}
      aria-label="Nuevo ticket"
      className="grid gap-5"
      sendLabel="Crear ticket"
      busy={sending}
    >
      <Field
        label="Asunto"
        name="subject"
        defaultValue={typed.subject}
        required
        markRequired
        minLength={TICKET_LIMITS.subjectMin}
        maxLength={TICKET_LIMITS.subjectMax}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          label="Categoría"
          name="category"
          required
          markRequired
          defaultValue={typed.category ?? ""}
        >
          <option value="">Elige una categoría</option>
          {ticketCategories.map((category) => (
            <option key={category} value={category}>
              {categoryLabel(category)}
            </option>
          ))}
        </Select>
        <Select label="Prioridad" name="priority" defaultValue={typed.priority ?? "medium"}>
          {ticketPriorities.map((priority) => (
            <option key={priority} value={priority}>
              {priorityLabel(priority)}
            </option>
          ))}
        </Select>
      </div>
      <PurchaseSelect page={page} chosen={typed.purchaseId} />
      <TextArea
        label="Mensaje"
        name="message"
        defaultValue={typed.message}
        rows={7}
        required
        markRequired
        minLength={TICKET_LIMITS.messageMin}
        maxLength={TICKET_LIMITS.messageMax}
        hint={`Entre ${TICKET_LIMITS.messageMin} y ${TICKET_LIMITS.messageMax} caracteres.`}
      />
    </CustomerTicketForm>
  );
}

/** The purchase a ticket is about: the one typed, else the one its link named (`?compra=`). */
function PurchaseSelect({ page, chosen }: { page: NewTicketChoices; chosen?: string }) {
  return (
    <Select
      label="Compra (opcional)"
      name="purchaseId"
      defaultValue={chosen ?? page.purchaseId}
      hint="Si tu consulta es sobre una compra, elígela para que la tengamos a mano."
    >
      <option value="">Ninguna</option>
      {page.purchases.map((purchase) => (
        <option key={purchase.id} value={purchase.id}>
          {purchase.serviceName} · {formatDate(purchase.createdAt, "date")}
        </option>
      ))}
    </Select>
  );
}
