import type { Route } from "./+types/recuperar-password";
import { requestPasswordReset } from "~/features/accounts/account-actions.server";
import { RecoverPasswordPage } from "~/features/accounts/recover-password-page";
import { pageMeta } from "~/features/seo/meta";

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
  return <RecoverPasswordPage answer={actionData} />;
}
