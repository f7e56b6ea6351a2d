import { Link } from "react-router";
import { Field, ValidatedForm } from "~/ui/form";
import { AccountCard, SubmitButton } from "./account-ui";
import { CodeField } from "./second-factor-pages";
import { secondFactorMessages, stepUpSchema, stepUpWithCodeSchema } from "./second-factor-rules";

type Answer = { errors?: readonly { code: string; field?: string }[] } | undefined;

/**
 * /confirmar-identidad (decision 063): the password again, and the app's code for an account
 * with one, before a sensitive change. A plain form: it works without JavaScript. 'Cancelar'
 * goes back to the page the person came from, unchanged.
 */
export function StepUpPage({
  page,
  answer,
}: {
  page: { email: string; totp: boolean; back: string };
  answer: Answer;
}) {
  return (
    <AccountCard
      title="Confirma tu identidad"
      subtitle={
        <>
          Para continuar con una operación delicada en la cuenta{" "}
          <strong className="break-all">{page.email}</strong>,{" "}
          {page.totp
            ? "escribe tu contraseña y el código de tu aplicación de autenticación."
            : "escribe tu contraseña."}
        </>
      }
    >
      <ValidatedForm
        schema={page.totp ? stepUpWithCodeSchema : stepUpSchema}
        messages={secondFactorMessages}
        answer={answer}
        className="space-y-4"
        aria-label="Confirmar tu identidad"
      >
        <Field
          label="Contraseña actual"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        {page.totp ? <CodeField recovery={false} /> : null}
        <SubmitButton sendingLabel="Comprobando...">Confirmar</SubmitButton>
      </ValidatedForm>
      <p className="mt-6 text-center text-sm text-slate-600">
        <Link to={page.back} className="font-semibold text-brand-700 underline">
          Cancelar y volver
        </Link>
      </p>
    </AccountCard>
  );
}
