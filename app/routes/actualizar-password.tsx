import type { Route } from "./+types/actualizar-password";
import { resetPassword } from "~/features/accounts/account-actions.server";
import { newPasswordPage } from "~/features/accounts/account-pages.server";
import { NewPasswordPage } from "~/features/accounts/new-password-page";
import { pageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Nueva contraseña",
    description: "Elige una nueva contraseña para tu cuenta.",
    path: "/actualizar-password",
    noIndex: true,
  });

export function loader({ request }: Route.LoaderArgs) {
  return newPasswordPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return resetPassword({ request, clientAddress: context.clientAddress });
}

export default function UpdatePassword({ loaderData, actionData }: Route.ComponentProps) {
  return <NewPasswordPage page={loaderData} answer={actionData} />;
}
