import { data } from "react-router";
import {
  checkForm,
  type FormCheck,
  type FormError,
  type FormFields,
  type FormLink,
  type FormNotice,
  type FormRefusal,
  type FormSchema,
} from "~/platform/forms/form-answer";

/**
 * The server's half of the form protocol (`platform/forms/form-answer.ts`): read a posted form,
 * check it, and answer a form that stays on its page, refused or done, the one way every action
 * does. A form that is done and moves on answers `redirectWithToast` instead.
 */

/** A posted form's text fields, and its files apart; `null` when the body is no form at all. */
export async function readForm(
  request: Request,
): Promise<{ fields: FormFields; files: File[] } | null> {
  try {
    const fields: FormFields = {};
    const files: File[] = [];
    for (const [name, value] of await request.formData())
      if (typeof value === "string") fields[name] = value;
      else files.push(value);
    return { fields, files };
  } catch {
    return null;
  }
}

/** Reads a posted form and checks it with `schema`; `null` when the body is no form. */
export async function parseForm<T>(
  request: Request,
  schema: FormSchema<T>,
): Promise<(FormCheck<T> & { fields: FormFields; files: File[] }) | null> {
  const form = await readForm(request);
  return form && { ...checkForm(schema, form.fields), ...form };
}

export type RefuseInit = {
  /** 400 unless told: 401, 403, 404, 409, 429, 502, 503 say why. */
  status?: number;
  headers?: Record<string, string>;
  /** Seconds until a limit lets the form through again, sent as Retry-After. */
  retryAfter?: number;
  /** The field a single code is about. */
  field?: string;
  /** The text typed, so a page without JavaScript shows it again. */
  values?: FormFields;
  /** Where to go next (for example 'Verificar'). */
  action?: FormLink;
};

/** Refuses a form: one code, or every problem (first the one to show), with its status. */
export function refuse<Code extends string>(
  problems: Code | readonly FormError<Code>[],
  { status = 400, headers, retryAfter, field, values, action }: RefuseInit = {},
) {
  const errors: FormError<Code>[] =
    typeof problems === "string"
      ? [field ? { code: problems, field } : { code: problems }]
      : [...problems];
  const answer: FormRefusal<Code> = { errors };
  if (values) answer.values = values;
  if (action) answer.action = action;
  const init: Record<string, string> = { ...headers };
  if (retryAfter !== undefined) init["Retry-After"] = String(retryAfter);
  return data(answer, { status, headers: init });
}

/** A form done without leaving its page: its message's code, and any facts the page shows. */
export function notice<Code extends string, Facts extends object = object>(
  code: Code,
  facts?: Facts,
) {
  return data<FormNotice<Code> & Facts>({ ...(facts as Facts), notice: code });
}
