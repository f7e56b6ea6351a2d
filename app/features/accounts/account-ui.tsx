import type { ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import { withReturnPath } from "~/features/identity/return-path";
import { useReturnPath } from "~/features/identity/use-return-path";
import { Button, type ButtonStyle } from "~/ui/button";
import { Field } from "~/ui/form";

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

/**
 * A link in an account page's text. `keepReturnPath` passes the page's `?volver=` on, so going
 * from sign-in to sign-up (or back) still ends on the page the visitor came from.
 */
export function AccountLink({
  to,
  keepReturnPath = false,
  children,
}: {
  to: string;
  keepReturnPath?: boolean;
  children: ReactNode;
}) {
  const returnPath = useReturnPath();
  return (
    <Link
      to={keepReturnPath ? withReturnPath(to, returnPath) : to}
      className="font-semibold text-brand-700 underline"
    >
      {children}
    </Link>
  );
}

/** The address an account form asks for; the staff sign-in fills it as a user name. */
export function EmailField({ autoComplete = "email" }: { autoComplete?: "email" | "username" }) {
  return <Field label="Email" name="email" type="email" autoComplete={autoComplete} required />;
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

/** An account form's full-width button; while the page is sending, it says so and waits. */
export function SubmitButton({
  sendingLabel,
  disabled = false,
  variant,
  children,
}: {
  sendingLabel: string;
  disabled?: boolean;
  variant?: ButtonStyle["variant"];
  children: ReactNode;
}) {
  const sending = useNavigation().state === "submitting";
  return (
    <Button
      type="submit"
      variant={variant}
      size="lg"
      className="w-full"
      disabled={sending || disabled}
    >
      {sending ? sendingLabel : children}
    </Button>
  );
}
