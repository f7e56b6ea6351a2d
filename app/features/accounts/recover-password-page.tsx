import { MailCheck } from "lucide-react";
import { useEffect } from "react";
import { ButtonLink } from "~/ui/button";
import { ValidatedForm } from "~/ui/form";
import { showToast } from "~/ui/toast";
import type { requestPasswordReset } from "./account-actions.server";
import type { DataOf } from "./account-pages.server";
import { accountMessages, recoverySchema } from "./account-schemas";
import { AccountCard, AccountLink, EmailField, SubmitButton } from "./account-ui";

type RecoveryAnswer = DataOf<typeof requestPasswordReset> | undefined;

/** /recuperar-password: the address to mail a link to, then what happens next. */
export function RecoverPasswordPage({ answer }: { answer: RecoveryAnswer }) {
  const sent = answer && "notice" in answer ? answer : undefined;
  useEffect(() => {
    if (sent) void showToast("success", accountMessages.resetMailSent);
  }, [sent]);
  if (sent) return <ResetMailSent email={sent.email} />;
  return (
    <AccountCard
      title="Recuperar contraseña"
      subtitle="Te enviaremos un enlace para elegir una nueva contraseña."
    >
      <ValidatedForm
        schema={recoverySchema}
        messages={accountMessages}
        answer={answer}
        className="space-y-4"
        aria-label="Recuperar contraseña"
      >
        <EmailField />
        <SubmitButton sendingLabel="Enviando...">Enviar Email</SubmitButton>
      </ValidatedForm>
      <BackToSignIn />
    </AccountCard>
  );
}

function ResetMailSent({ email }: { email: string }) {
  return (
    <AccountCard title="Revisa tu email">
      <div role="status" className="flex gap-3">
        <MailCheck className="size-8 shrink-0 text-brand-600" aria-hidden />
        <p className="text-slate-700">
          <strong className="block text-ink">{accountMessages.resetMailSent.title}</strong>
          Si existe una cuenta para <strong className="break-all">{email}</strong>, recibirás un
          enlace para elegir una nueva contraseña. Caduca en 1 hora.
        </p>
      </div>
      <ButtonLink
        to="/recuperar-password"
        reloadDocument
        variant="secondary"
        size="lg"
        className="mt-6 w-full"
      >
        Intentar de nuevo
      </ButtonLink>
      <BackToSignIn />
    </AccountCard>
  );
}

function BackToSignIn() {
  return (
    <p className="mt-6 text-center text-sm">
      <AccountLink to="/login-cliente">Volver a iniciar sesión</AccountLink>
    </p>
  );
}
