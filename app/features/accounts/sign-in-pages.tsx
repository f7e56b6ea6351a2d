import { Field, ValidatedForm } from "~/ui/form";
import type { adminSignIn, customerSignIn } from "./account-actions.server";
import type { DataOf } from "./account-pages.server";
import { accountMessages, signInSchema } from "./account-schemas";
import { AccountCard, AccountLink, EmailField, SubmitButton } from "./account-ui";
import { PasskeySignIn } from "./security-sections";

type SignInAnswer = DataOf<typeof customerSignIn | typeof adminSignIn> | undefined;

/**
 * The one sign-in form, of customers and of staff: it posts to the page it is on, whose action
 * decides where a valid password leads (and keeps the page's `?volver=`, which is in its URL).
 */
function SignInForm({
  label,
  emailAutoComplete,
  forgotPasswordText,
  answer,
}: {
  /** The form's accessible name. */
  label: string;
  emailAutoComplete: "email" | "username";
  forgotPasswordText: string;
  answer: SignInAnswer;
}) {
  return (
    <ValidatedForm
      schema={signInSchema}
      messages={accountMessages}
      answer={answer}
      className="space-y-4"
      aria-label={label}
    >
      <EmailField autoComplete={emailAutoComplete} />
      <Field
        label="Contraseña"
        name="password"
        type="password"
        autoComplete="current-password"
        required
      />
      <div className="text-right text-sm">
        <AccountLink to="/recuperar-password">{forgotPasswordText}</AccountLink>
      </div>
      <SubmitButton sendingLabel="Entrando...">Iniciar Sesión</SubmitButton>
    </ValidatedForm>
  );
}

/** What tells the customers' sign-in from the staff's. */
const doors = {
  customers: {
    title: "Iniciar sesión",
    subtitle: "Accede a tu área de cliente.",
    label: "Inicio de sesión",
    emailAutoComplete: "email",
    forgotPasswordText: "¿Has olvidado tu contraseña?",
  },
  staff: {
    title: "Panel de Administración",
    subtitle: "Acceso restringido al personal.",
    label: "Acceso de administración",
    emailAutoComplete: "username",
    forgotPasswordText: "¿Olvidaste tu contraseña?",
  },
} as const;

/** /login-cliente for customers, /login for the staff (who cannot sign up). */
export function SignInPage({
  audience,
  answer,
}: {
  audience: keyof typeof doors;
  answer: SignInAnswer;
}) {
  const { title, subtitle, ...form } = doors[audience];
  return (
    <AccountCard title={title} subtitle={subtitle}>
      <SignInForm {...form} answer={answer} />
      <PasskeySignIn door={audience} />
      {audience === "customers" ? (
        <p className="mt-6 text-center text-sm text-slate-600">
          ¿No tienes cuenta?{" "}
          <AccountLink to="/registro" keepReturnPath>
            Regístrate
          </AccountLink>
        </p>
      ) : null}
    </AccountCard>
  );
}
