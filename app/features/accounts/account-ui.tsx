import { AlertCircle } from "lucide-react";
import { useEffect, type ComponentProps, type ReactNode } from "react";
import { Form, Link } from "react-router";
import type { z } from "~/platform/validation/zod";
import { showToast } from "~/ui/toast";
import { accountMessages, firstError, type AccountMessage } from "./account-schemas";

export type AccountFormData =
  { error: AccountMessage; action?: { label: string; to: string } } | undefined;

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

const inputClasses =
  "mt-1 block w-full rounded-lg border-0 px-3 py-2.5 text-ink shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:ring-inset";

export function Field({ label, ...props }: { label: string } & ComponentProps<"input">) {
  return (
    <label className="block text-sm font-medium text-ink">
      {label}
      <input className={inputClasses} {...props} />
    </label>
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

/** The answer of the server, inline (it also works without JavaScript) and as a toast. */
export function FormMessage({ result }: { result: AccountFormData }) {
  useEffect(() => {
    if (result) void showToast("error", accountMessages[result.error]);
  }, [result]);
  if (!result) return null;
  const message = accountMessages[result.error];
  return (
    <div
      role="alert"
      className="mb-5 flex gap-3 rounded-lg bg-red-50 p-4 text-sm text-red-900 ring-1 ring-red-200"
    >
      <AlertCircle className="size-5 shrink-0 text-red-600" aria-hidden />
      <div>
        <p className="font-semibold">{message.title}</p>
        {"description" in message && message.description ? (
          <p className="mt-1">{message.description}</p>
        ) : null}
        {result.action ? (
          <Link
            to={result.action.to}
            className="mt-2 inline-block font-semibold text-red-900 underline"
          >
            {result.action.label}
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/**
 * A form checked in the browser with the server's schema before it is sent: the first failure
 * is shown as a toast and nothing is posted.
 */
export function ValidatedForm<T>({
  schema,
  blockedBy,
  children,
  ...props
}: {
  schema: z.ZodMiniType<T>;
  /** A reason, checked after the schema, not to send the form yet. */
  blockedBy?: AccountMessage;
} & ComponentProps<typeof Form>) {
  return (
    <Form
      method="post"
      noValidate
      {...props}
      onSubmit={(event) => {
        const values = Object.fromEntries(new FormData(event.currentTarget));
        const result = firstError(schema, values);
        const problem = result.success ? blockedBy : result.error;
        if (problem) {
          event.preventDefault();
          void showToast("error", accountMessages[problem]);
        }
      }}
    >
      {children}
    </Form>
  );
}
