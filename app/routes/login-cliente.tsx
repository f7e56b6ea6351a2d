import type { Route } from "./+types/login-cliente";
import { customerSignIn } from "~/features/accounts/account-actions.server";
import { signInPage } from "~/features/accounts/account-pages.server";
import { SignInPage } from "~/features/accounts/sign-in-pages";
import { pageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Iniciar sesión",
    description: "Accede a tu área de cliente para ver tus compras y tu soporte.",
    path: "/login-cliente",
  });

export function loader({ request }: Route.LoaderArgs) {
  return signInPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return customerSignIn({ request, clientAddress: context.clientAddress });
}

export default function CustomerLogin({ actionData }: Route.ComponentProps) {
  return <SignInPage audience="customers" answer={actionData} />;
}
