import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/admin-login";
import { adminSignIn } from "~/features/accounts/account-actions.server";
import { accountMessages, signInSchema } from "~/features/accounts/account-schemas";
import { AccountCard } from "~/features/accounts/account-ui";
import { Field, ValidatedForm } from "~/ui/form";
import { pageMeta } from "~/features/seo/meta";
import { Button } from "~/ui/button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Panel de Administración",
    description: "Acceso del personal al panel de administración.",
    path: "/login",
    noIndex: true,
  });

export function action({ request, context }: Route.ActionArgs) {
  return adminSignIn({ request, clientAddress: context.clientAddress });
}

export default function AdminLogin({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <AccountCard title="Panel de Administración" subtitle="Acceso restringido al personal.">
      <ValidatedForm
        schema={signInSchema}
        messages={accountMessages}
        answer={actionData}
        className="space-y-4"
        aria-label="Acceso de administración"
      >
        <Field label="Email" name="email" type="email" autoComplete="username" required />
        <Field
          label="Contraseña"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <div className="text-right text-sm">
          <Link to="/recuperar-password" className="font-semibold text-brand-700 underline">
            ¿Olvidaste tu contraseña?
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Entrando..." : "Iniciar Sesión"}
        </Button>
      </ValidatedForm>
    </AccountCard>
  );
}
