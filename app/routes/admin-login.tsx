import type { Route } from "./+types/admin-login";
import { adminSignIn } from "~/features/accounts/account-actions.server";
import { SignInPage } from "~/features/accounts/sign-in-pages";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Panel de Administración",
    description: "Acceso del personal al panel de administración.",
    path: "/login",
  });

export function action({ request, context }: Route.ActionArgs) {
  return adminSignIn({ request, clientAddress: context.clientAddress });
}

export default function AdminLogin({ actionData }: Route.ComponentProps) {
  return <SignInPage audience="staff" answer={actionData} />;
}
