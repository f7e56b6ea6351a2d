import { useState } from "react";
import { HumanCheck } from "~/platform/human-check/human-check";
import { ValidatedForm } from "~/ui/form";
import type { signUp } from "./account-actions.server";
import type { DataOf, signUpPage } from "./account-pages.server";
import { accountMessages, signUpSchema } from "./account-schemas";
import {
  AccountCard,
  AccountLink,
  EmailField,
  NewPasswordFields,
  SubmitButton,
} from "./account-ui";

/** /registro */
export function SignUpPage({
  page,
  answer,
}: {
  page: Awaited<ReturnType<typeof signUpPage>>;
  answer: DataOf<typeof signUp> | undefined;
}) {
  const [humanCheckReady, setHumanCheckReady] = useState(!page.humanCheck);
  return (
    <AccountCard
      title="Crear cuenta"
      subtitle={
        <>
          ¿Ya tienes cuenta?{" "}
          <AccountLink to="/login-cliente" keepReturnPath>
            Inicia sesión
          </AccountLink>
        </>
      }
    >
      <ValidatedForm
        schema={signUpSchema}
        messages={accountMessages}
        answer={answer}
        // The spec's registration errors are toasts (section 5); each field's stays under it.
        toasts
        blockedBy={humanCheckReady ? undefined : accountMessages.humanCheckNotReady}
        className="space-y-4"
        aria-label="Registro"
      >
        <EmailField />
        <NewPasswordFields label="Contraseña" />
        <p className="text-xs text-slate-500">
          Mínimo 8 caracteres. Te enviaremos un email para confirmar tu cuenta.
        </p>
        {page.humanCheck ? (
          // Room for the check's status line, so the button does not move when it appears.
          <div className="min-h-5">
            <HumanCheck onReadyChange={setHumanCheckReady} renewOn={answer} />
          </div>
        ) : null}
        <p className="text-sm text-slate-600">
          Al crear tu cuenta aceptas los{" "}
          <AccountLink to="/terminos">Términos y Condiciones</AccountLink> y confirmas que has leído
          la <AccountLink to="/privacidad">Política de Privacidad</AccountLink>.
        </p>
        <SubmitButton sendingLabel="Registrando..." disabled={!humanCheckReady}>
          {humanCheckReady ? "Crear Cuenta" : "Cargando..."}
        </SubmitButton>
      </ValidatedForm>
    </AccountCard>
  );
}
