import { MailCheck } from "lucide-react";
import { useEffect } from "react";
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/recuperar-password";
import { requestPasswordReset } from "~/features/accounts/account-actions.server";
import { accountMessages, recoverySchema } from "~/features/accounts/account-schemas";
import { AccountCard } from "~/features/accounts/account-ui";
import { Field, ValidatedForm } from "~/ui/form";
import { pageMeta } from "~/features/seo/meta";
import { Button, ButtonLink } from "~/ui/button";
import { showToast } from "~/ui/toast";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Recuperar contraseña",
    description: "Recibe un enlace para elegir una nueva contraseña.",
    path: "/recuperar-password",
  });

export function action({ request, context }: Route.ActionArgs) {
  return requestPasswordReset({ request, clientAddress: context.clientAddress });
}

export default function RecoverPassword({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const sent = actionData && "notice" in actionData ? actionData : undefined;
  useEffect(() => {
    if (sent) void showToast("success", accountMessages.resetMailSent);
  }, [sent]);
  if (sent) {
    return (
      <AccountCard title="Revisa tu email">
        <div role="status" className="flex gap-3">
          <MailCheck className="size-8 shrink-0 text-brand-600" aria-hidden />
          <p className="text-slate-700">
            <strong className="block text-ink">{accountMessages.resetMailSent.title}</strong>
            Si existe una cuenta para <strong className="break-all">{sent.email}</strong>, recibirás
            un enlace para elegir una nueva contraseña. Caduca en 1 hora.
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
  return (
    <AccountCard
      title="Recuperar contraseña"
      subtitle="Te enviaremos un enlace para elegir una nueva contraseña."
    >
      <ValidatedForm
        schema={recoverySchema}
        messages={accountMessages}
        answer={actionData}
        className="space-y-4"
        aria-label="Recuperar contraseña"
      >
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Enviando..." : "Enviar Email"}
        </Button>
      </ValidatedForm>
      <BackToSignIn />
    </AccountCard>
  );
}

function BackToSignIn() {
  return (
    <p className="mt-6 text-center text-sm">
      <Link to="/login-cliente" className="font-semibold text-brand-700 underline">
        Volver a iniciar sesión
      </Link>
    </p>
  );
}
