import type { Route } from "./+types/registro";
import { signUp } from "~/features/accounts/account-actions.server";
import { signUpPage } from "~/features/accounts/account-pages.server";
import { SignUpPage } from "~/features/accounts/sign-up-page";
import { pageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Crear cuenta",
    description: "Crea tu cuenta de cliente para contratar y seguir tus servicios digitales.",
    path: "/registro",
  });

export function loader({ request }: Route.LoaderArgs) {
  return signUpPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return signUp({ request, clientAddress: context.clientAddress });
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  return <SignUpPage page={loaderData} answer={actionData} />;
}
