import type { Route } from "./+types/verificar-email";
import { resendVerification } from "~/features/accounts/account-actions.server";
import { verificationPage } from "~/features/accounts/account-pages.server";
import { VerifyEmailPage } from "~/features/accounts/verify-email-page";
import { pageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Verifica tu email",
    description: "Confirma tu dirección de email para activar tu cuenta.",
    path: "/verificar-email",
    noIndex: true,
  });

export function loader({ request }: Route.LoaderArgs) {
  return verificationPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return resendVerification({ request, clientAddress: context.clientAddress });
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  return <VerifyEmailPage page={loaderData} answer={actionData} />;
}
