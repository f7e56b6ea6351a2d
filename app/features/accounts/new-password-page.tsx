import { ButtonLink } from "~/ui/button";
import { ValidatedForm } from "~/ui/form";
import type { resetPassword } from "./account-actions.server";
import type { DataOf, newPasswordPage } from "./account-pages.server";
import { accountMessages, newPasswordSchema } from "./account-schemas";
import { AccountCard, NewPasswordFields, SubmitButton } from "./account-ui";

/** /actualizar-password: the mailed link's new password, or a way to ask for a new link. */
export function NewPasswordPage({
  page,
  answer,
}: {
  page: ReturnType<typeof newPasswordPage>;
  answer: DataOf<typeof resetPassword> | undefined;
}) {
  if (!page.token) return <ResetLinkInvalid />;
  return (
    <AccountCard title="Nueva contraseña" subtitle="Elige una contraseña de al menos 8 caracteres.">
      <ValidatedForm
        schema={newPasswordSchema}
        messages={accountMessages}
        answer={answer}
        className="space-y-4"
        aria-label="Formulario de nueva contraseña"
      >
        <input type="hidden" name="token" value={page.token} />
        <NewPasswordFields label="Nueva contraseña" />
        <SubmitButton sendingLabel="Guardando...">Guardar contraseña</SubmitButton>
      </ValidatedForm>
    </AccountCard>
  );
}

function ResetLinkInvalid() {
  return (
    <AccountCard title={accountMessages.resetLinkInvalid.title}>
      <p className="text-slate-700">{accountMessages.resetLinkInvalid.description}</p>
      <ButtonLink to="/recuperar-password" size="lg" className="mt-6 w-full">
        Solicitar un nuevo enlace
      </ButtonLink>
    </AccountCard>
  );
}
