import type { ReactNode } from "react";
import type { z } from "~/platform/validation/zod";
import {
  Field,
  ValidatedForm,
  type FieldIssue,
  type FormReply,
  type FormValues,
  type ValidatedFormProps,
} from "~/ui/form";
import {
  accountMessageField,
  accountMessages,
  type AccountFormResult,
  type AccountMessage,
} from "./account-schemas";

/** The centred card every account page uses. */
export function AccountCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="flex justify-center bg-slate-50 px-4 py-16 sm:py-20">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {subtitle ? <p className="mt-2 text-sm text-slate-600">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
    </section>
  );
}

/** A new password and its confirmation, checked by the sign-up rules. */
export function NewPasswordFields({ label }: { label: string }) {
  return (
    <>
      <Field label={label} name="password" type="password" autoComplete="new-password" required />
      <Field
        label="Confirmar contraseña"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
      />
    </>
  );
}

function accountIssue(message: AccountMessage): FieldIssue {
  return { field: accountMessageField[message], text: accountMessages[message] };
}

/** The browser-side check of an account form: the server's schema, with its messages. */
export function accountCheck<T>(schema: z.ZodMiniType<T>) {
  return (values: FormValues): FieldIssue[] => {
    const result = schema.safeParse(values);
    if (result.success) return [];
    return result.error.issues.map((issue) => accountIssue(issue.message as AccountMessage));
  };
}

type AccountAnswer = AccountFormResult | { resent: true } | { sent: true };

/** How every account form shows the server's answer. */
export function accountReply(answer: AccountAnswer): FormReply | undefined {
  if ("resent" in answer) return { tone: "success", text: accountMessages.resendSent };
  if (!("error" in answer)) return undefined;
  const issue = accountIssue(answer.error);
  return {
    tone: "error",
    text: issue.text,
    issues: issue.field ? [issue] : undefined,
    action: answer.action,
  };
}

/** An account form: checked in the browser with `schema` (the server's), answered the account way. */
export function AccountForm<T>({
  schema,
  ...props
}: { schema?: z.ZodMiniType<T> } & Omit<
  ValidatedFormProps<AccountAnswer>,
  "validate" | "describe"
>) {
  return (
    <ValidatedForm
      validate={schema ? accountCheck(schema) : undefined}
      describe={accountReply}
      {...props}
    />
  );
}
