import type { ToastKind, ToastText } from "~/platform/http/toast";

/**
 * The one protocol of the site's forms, shared by the server and the browser (no React, and zod
 * only as a type): what an action answers when a form stays on its page, how a schema's check
 * turns into that answer, and how a feature's message book turns it into what the form shows.
 * The server's half is `platform/http/form-reply.server.ts`; the form is `ValidatedForm` (ui/form).
 */

/** One problem of a form: its message's code, and the field it is about (none: the whole form). */
export type FormError<Code extends string = string> = {
  code: Code;
  field?: string;
  /** What the message names, such as a refused file. */
  detail?: string;
};

/** A form's text fields (files apart), as posted or as echoed back. */
export type FormFields = Record<string, string>;

/** A link a message offers (for example 'Verificar'). */
export type FormLink = { label: string; to: string };

/**
 * A refused form: every problem, first the one to show; optionally the text typed, so a page
 * without JavaScript shows it again, and where to go next.
 */
export type FormRefusal<Code extends string = string> = {
  errors: FormError<Code>[];
  values?: FormFields;
  action?: FormLink;
};

/** A form done without leaving the page: the code of its message (extra facts may come along). */
export type FormNotice<Code extends string = string> = { notice: Code };

export type FormAnswer<Code extends string = string> = FormRefusal<Code> | FormNotice<Code>;

/** A message's text; a function when it names what was typed or the error's detail. */
export type FormText =
  ToastText | ((context: { values: FormFields; detail?: string }) => ToastText);

/** A feature's messages by code: its one source of Spanish texts for its forms. */
export type MessageBook<Code extends string = string> = Readonly<Record<Code, FormText>>;

/** A problem as a form shows it: next to its field, or about the whole form. */
export type FieldIssue = { field?: string; text: ToastText };

/** How a form shows one answer. */
export type FormReply = {
  tone: ToastKind;
  text: ToastText;
  /** Every problem, in the order the form should mention them. */
  issues?: FieldIssue[];
  /** Where to go next (for example 'Verificar'). */
  action?: FormLink;
};

/** What `checkForm` needs of a schema: zod's `safeParse`, whose issue messages are codes. */
export type FormSchema<T> = {
  safeParse(values: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: readonly { message: string; path: readonly PropertyKey[] }[] };
      };
};

export type FormCheck<T> = { ok: true; data: T } | { ok: false; errors: FormError[] };

/**
 * Runs a form's schema: its data, or every problem in the schema's order, one per field, each
 * about the field its issue's path names.
 */
export function checkForm<T>(schema: FormSchema<T>, values: unknown): FormCheck<T> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FormError[] = [];
  for (const { message, path } of result.error.issues) {
    const field = typeof path[0] === "string" ? path[0] : undefined;
    if (field && errors.some((error) => error.field === field)) continue;
    errors.push(field ? { code: message, field } : { code: message });
  }
  return { ok: false, errors };
}

/** A problem's text from the book (a code the book lacks shows as itself). */
export function textOf(book: MessageBook, error: FormError, values: FormFields = {}): ToastText {
  const text = Object.hasOwn(book, error.code) ? book[error.code]! : { title: error.code };
  return typeof text === "function" ? text({ values, detail: error.detail }) : text;
}

export function issuesOf(
  errors: readonly FormError[],
  book: MessageBook,
  values?: FormFields,
): FieldIssue[] {
  return errors.map((error) => ({ field: error.field, text: textOf(book, error, values) }));
}

/** How a form shows an answer: a refusal as errors, a notice as a success; anything else not. */
export function replyOf(answer: unknown, book: MessageBook): FormReply | undefined {
  if (!answer || typeof answer !== "object") return undefined;
  const { notice, errors, values, action } = answer as Partial<FormNotice & FormRefusal>;
  if (typeof notice === "string") return { tone: "success", text: textOf(book, { code: notice }) };
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const issues = issuesOf(errors, book, values);
  return { tone: "error", text: issues[0]!.text, issues, action };
}

/**
 * A field's error as its field shows it: the whole message, title and sentence, since the field
 * is the one place that says it (decision 055).
 */
export function fieldErrorText({ title, description }: ToastText): string {
  if (!description) return title;
  return `${title}${/[.!?:]$/.test(title) ? "" : "."} ${description}`;
}

/** Where a form's answer is shown (decision 055): the box at the top of the form, a toast. */
export type ReplyPlaces = { box?: FormReply; toast?: FormReply };

/**
 * The one rule of where a form shows an answer, so that each error is shown once (decision 055).
 * A problem about a field is always shown under that field, and only there. The box at the top
 * of the form appears only when it adds something: a problem about no field, a summary of two or
 * more problems, or a link the answer offers. A toast only in the forms whose errors the spec
 * makes toasts (`toasts`: registration and contact, spec section 5, and a dialog with no room for
 * a box), and only once JavaScript runs (`live`: the answer came to a running page): there the
 * toast says the first problem, in the spec's words, and takes the box's place instead of
 * repeating it. Without JavaScript there are no toasts, so the box rule holds there too. A notice
 * keeps the box and its toast (a toast alone in `toasts` forms).
 */
export function placeReply(
  reply: FormReply,
  { toasts, live }: { toasts: boolean; live: boolean },
): ReplyPlaces {
  if (toasts && live) return { toast: reply };
  if (reply.tone !== "error") return live ? { box: reply, toast: reply } : { box: reply };
  const issues = reply.issues ?? [{ text: reply.text }];
  const needsBox =
    issues.length > 1 || issues.some((issue) => !issue.field) || reply.action !== undefined;
  return needsBox ? { box: reply } : {};
}
