import type { ReactNode } from "react";
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
