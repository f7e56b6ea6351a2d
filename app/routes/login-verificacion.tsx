import type { Route } from "./+types/login-verificacion";
import { SignInCodePage } from "~/features/accounts/second-factor-pages";
import { PasskeySignIn } from "~/features/accounts/security-sections";
import {
  secondFactorSignIn,
  secondFactorSignInPage,
} from "~/features/accounts/second-factor-sign-in.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Verificación en dos pasos · Panel de Administración",
    description: "Acceso del personal al panel de administración.",
    path: "/login/verificacion",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const recovery = new URL(request.url).searchParams.get("metodo") === "recuperacion";
  return { ...(await secondFactorSignInPage(request, "staff")), recovery };
}

export function action({ request, context }: Route.ActionArgs) {
  return secondFactorSignIn({ request, clientAddress: context.clientAddress }, "staff");
}

export default function StaffSignInCode({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SignInCodePage page={loaderData} answer={actionData}>
      {loaderData.passkey ? <PasskeySignIn door="staff" secondFactor /> : null}
    </SignInCodePage>
  );
}
