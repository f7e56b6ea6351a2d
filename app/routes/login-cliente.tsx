import { Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/login-cliente";
import { customerSignIn } from "~/features/accounts/account-actions.server";
import { accountMessages, signInSchema } from "~/features/accounts/account-schemas";
import { AccountCard } from "~/features/accounts/account-ui";
import { Field, ValidatedForm } from "~/ui/form";
import {
  DEFAULT_RETURN_PATH,
  returnPathOf,
  useReturnPath,
  withReturnPath,
} from "~/features/identity/return-path";
import { getViewer } from "~/features/identity/session.server";
import { pageMeta } from "~/features/seo/meta";
import { Button } from "~/ui/button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Iniciar sesión",
    description: "Accede a tu área de cliente para ver tus compras y tu soporte.",
    path: "/login-cliente",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const { viewer } = await getViewer(request);
  if (viewer) throw redirect(returnPathOf(request.url) ?? DEFAULT_RETURN_PATH);
  return null;
}

export function action({ request, context }: Route.ActionArgs) {
  return customerSignIn({ request, clientAddress: context.clientAddress });
}

export default function CustomerLogin({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const returnPath = useReturnPath();
  return (
    <AccountCard title="Iniciar sesión" subtitle="Accede a tu área de cliente.">
      <ValidatedForm
        schema={signInSchema}
        messages={accountMessages}
        answer={actionData}
        className="space-y-4"
        aria-label="Inicio de sesión"
      >
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Field
          label="Contraseña"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <div className="text-right text-sm">
          <Link to="/recuperar-password" className="font-semibold text-brand-700 underline">
            ¿Has olvidado tu contraseña?
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Entrando..." : "Iniciar Sesión"}
        </Button>
      </ValidatedForm>
      <p className="mt-6 text-center text-sm text-slate-600">
        ¿No tienes cuenta?{" "}
        <Link
          to={withReturnPath("/registro", returnPath)}
          className="font-semibold text-brand-700 underline"
        >
          Regístrate
        </Link>
      </p>
    </AccountCard>
  );
}
