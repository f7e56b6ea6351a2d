import { useState } from "react";
import { Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/registro";
import { signUp } from "~/features/accounts/account-actions.server";
import { accountMessages, signUpSchema } from "~/features/accounts/account-schemas";
import { AccountCard, NewPasswordFields } from "~/features/accounts/account-ui";
import { Field, ValidatedForm } from "~/ui/form";
import { returnPathOf, useReturnPath, withReturnPath } from "~/features/identity/return-path";
import { getViewer } from "~/features/identity/session.server";
import { pageMeta } from "~/features/seo/meta";
import { HumanCheck } from "~/platform/human-check/human-check";
import { humanCheckEnabled } from "~/platform/human-check/human-check.server";
import { Button } from "~/ui/button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Crear cuenta",
    description: "Crea tu cuenta de cliente para contratar y seguir tus servicios digitales.",
    path: "/registro",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const { viewer } = await getViewer(request);
  if (viewer) throw redirect(returnPathOf(request.url) ?? "/mi-cuenta");
  return { humanCheck: humanCheckEnabled() };
}

export function action({ request, context }: Route.ActionArgs) {
  return signUp({ request, clientAddress: context.clientAddress });
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [humanCheckReady, setHumanCheckReady] = useState(!loaderData.humanCheck);
  const returnPath = useReturnPath();
  return (
    <AccountCard
      title="Crear cuenta"
      subtitle={
        <>
          ¿Ya tienes cuenta?{" "}
          <Link
            to={withReturnPath("/login-cliente", returnPath)}
            className="font-semibold text-brand-700 underline"
          >
            Inicia sesión
          </Link>
        </>
      }
    >
      <ValidatedForm
        schema={signUpSchema}
        messages={accountMessages}
        answer={actionData}
        blockedBy={humanCheckReady ? undefined : accountMessages.humanCheckNotReady}
        className="space-y-4"
        aria-label="Registro"
      >
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <NewPasswordFields label="Contraseña" />
        <p className="text-xs text-slate-500">
          Mínimo 8 caracteres. Te enviaremos un email para confirmar tu cuenta.
        </p>
        {loaderData.humanCheck ? (
          // Space reserved for the widget, so the button does not move when it appears.
          <div className="min-h-[72px]">
            <HumanCheck onReadyChange={setHumanCheckReady} renewOn={actionData} />
          </div>
        ) : null}
        <p className="text-sm text-slate-600">
          Al crear tu cuenta aceptas los{" "}
          <Link to="/terminos" className="font-semibold text-brand-700 underline">
            Términos y Condiciones
          </Link>{" "}
          y confirmas que has leído la{" "}
          <Link to="/privacidad" className="font-semibold text-brand-700 underline">
            Política de Privacidad
          </Link>
          .
        </p>
        <Button type="submit" size="lg" className="w-full" disabled={busy || !humanCheckReady}>
          {busy ? "Registrando..." : humanCheckReady ? "Crear Cuenta" : "Cargando..."}
        </Button>
      </ValidatedForm>
    </AccountCard>
  );
}
