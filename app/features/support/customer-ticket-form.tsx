import type { FormRefusal } from "~/platform/forms/form-answer";
import { Button } from "~/ui/button";
import { ValidatedForm, type ValidatedFormProps } from "~/ui/form";
import { AttachmentsField } from "./support-ui";
import { supportMessages } from "./ticket-rules";

/** What a ticket action answers a form that stays on its page: a refusal, with the text typed. */
export type TicketFormAnswer = FormRefusal | undefined;

/**
 * A form of the customer's ticket pages (a new ticket, a message): its own fields, then the files
 * and the send button, which says 'Enviando...' while `busy`.
 */
export function CustomerTicketForm({
  sendLabel,
  busy,
  children,
  ...form
}: { sendLabel: string; busy: boolean } & Omit<
  ValidatedFormProps<TicketFormAnswer>,
  "messages" | "encType"
>) {
  return (
    <ValidatedForm messages={supportMessages} encType="multipart/form-data" {...form}>
      {children}
      <AttachmentsField />
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? "Enviando..." : sendLabel}
        </Button>
      </div>
    </ValidatedForm>
  );
}
