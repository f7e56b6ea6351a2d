import type { Route } from "./+types/login-cliente-verificacion";
import { SignInCodePage } from "~/features/accounts/second-factor-pages";
import { PasskeySignIn } from "~/features/accounts/security-sections";
import {
  secondFactorSignIn,
  secondFactorSignInPage,
} from "~/features/accounts/second-factor-sign-in.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Verificación en dos pasos",
    description: "Accede a tu área de cliente.",
    path: "/login-cliente/verificacion",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const recovery = new URL(request.url).searchParams.get("metodo") === "recuperacion";
  return { ...(await secondFactorSignInPage(request, "customers")), recovery };
}

export function action({ request, context }: Route.ActionArgs) {
  return secondFactorSignIn({ request, clientAddress: context.clientAddress }, "customers");
}

export default function CustomerSignInCode({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SignInCodePage page={loaderData} answer={actionData}>
      {loaderData.passkey ? <PasskeySignIn door="customers" secondFactor /> : null}
    </SignInCodePage>
  );
}
