import { useNavigation } from "react-router";
import type { Route } from "./+types/mi-cuenta-ticket-nuevo";
import { requireCustomer } from "~/features/identity/session.server";
import { pageMeta } from "~/features/seo/meta";
import { BackToSupport } from "~/features/customer-area/account-area";
import { AttachmentsField } from "~/features/support/support-ui";
import {
  categoryLabel,
  newTicketSchema,
  priorityLabel,
  supportMessages,
  TICKET_LIMITS,
  ticketCategories,
  ticketPriorities,
} from "~/features/support/ticket-rules";
import { createTicketAction, newTicketPage } from "~/features/support/customer-tickets.server";
import { Button } from "~/ui/button";
import { formatDate } from "~/ui/dates";
import { cardClasses, Field, Select, TextArea, ValidatedForm } from "~/ui/form";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Nuevo ticket",
    description: "Pide ayuda a nuestro equipo de soporte.",
    path: "/mi-cuenta/tickets/nuevo",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  return newTicketPage(await requireCustomer(request), new URL(request.url));
}

export async function action({ request }: Route.ActionArgs) {
  return createTicketAction(request, await requireCustomer(request));
}

export default function NewTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { purchases, purchaseId } = loaderData;
  // A refused form comes back with what was typed (without JavaScript the page is new).
  const typed = actionData?.values ?? {};
  const sending = useNavigation().state === "submitting";
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <BackToSupport />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Nuevo ticket</h1>
      <p className="mt-2 text-slate-600">
        Cuéntanos qué necesitas. Te responderemos en menos de 24 horas.
      </p>
      <div className={`${cardClasses} mt-6`}>
        <ValidatedForm
          schema={newTicketSchema}
          messages={supportMessages}
          answer={actionData}
          aria-label="Nuevo ticket"
          encType="multipart/form-data"
          className="grid gap-5"
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
          <Select
            label="Compra (opcional)"
            name="purchaseId"
            defaultValue={typed.purchaseId ?? purchaseId}
            hint="Si tu consulta es sobre una compra, elígela para que la tengamos a mano."
          >
            <option value="">Ninguna</option>
            {purchases.map((purchase) => (
              <option key={purchase.id} value={purchase.id}>
                {purchase.serviceName} · {formatDate(purchase.createdAt, "date")}
              </option>
            ))}
          </Select>
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
          <AttachmentsField />
          <div>
            <Button type="submit" disabled={sending}>
              {sending ? "Enviando..." : "Crear ticket"}
            </Button>
          </div>
        </ValidatedForm>
      </div>
    </section>
  );
}
