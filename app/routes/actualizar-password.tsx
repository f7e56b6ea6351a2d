import { useNavigation } from "react-router";
import type { Route } from "./+types/actualizar-password";
import { resetPassword } from "~/features/accounts/account-actions.server";
import { accountMessages, newPasswordSchema } from "~/features/accounts/account-schemas";
import { AccountCard, NewPasswordFields } from "~/features/accounts/account-ui";
import { pageMeta } from "~/features/seo/meta";
import { Button, ButtonLink } from "~/ui/button";
import { ValidatedForm } from "~/ui/form";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Nueva contraseña",
    description: "Elige una nueva contraseña para tu cuenta.",
    path: "/actualizar-password",
    noIndex: true,
  });

/** The reset link of the mail lands here with its token (or with ?error= when it is not valid). */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  return { token: params.get("error") ? null : params.get("token") };
}

export function action({ request, context }: Route.ActionArgs) {
  return resetPassword({ request, clientAddress: context.clientAddress });
}

export default function UpdatePassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  if (!loaderData.token) {
    return (
      <AccountCard title={accountMessages.resetLinkInvalid.title}>
        <p className="text-slate-700">{accountMessages.resetLinkInvalid.description}</p>
        <ButtonLink to="/recuperar-password" size="lg" className="mt-6 w-full">
          Solicitar un nuevo enlace
        </ButtonLink>
      </AccountCard>
    );
  }
  return (
    <AccountCard title="Nueva contraseña" subtitle="Elige una contraseña de al menos 8 caracteres.">
      <ValidatedForm
        schema={newPasswordSchema}
        messages={accountMessages}
        answer={actionData}
        className="space-y-4"
        aria-label="Formulario de nueva contraseña"
      >
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields label="Nueva contraseña" />
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Guardando..." : "Guardar contraseña"}
        </Button>
      </ValidatedForm>
    </AccountCard>
  );
}
