import type { ReactNode } from "react";
import type { FormSchema, MessageBook } from "~/platform/forms/form-answer";
import { cardClasses, ValidatedForm } from "~/ui/form";

/**
 * One of a page's forms that post to the same action (`useIntentAnswer` tells whose answer it
 * is): a card named by its heading, sending its `intent`, checked with the server's schema.
 */
export function IntentForm<Answer>({
  intent,
  heading,
  schema,
  messages,
  answer,
  encType,
  children,
}: {
  intent: string;
  heading: string;
  schema: FormSchema<unknown>;
  messages: MessageBook;
  answer: Answer;
  encType?: "multipart/form-data";
  children: ReactNode;
}) {
  const headingId = `${intent}-heading`;
  return (
    <ValidatedForm
      schema={schema}
      messages={messages}
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
