import type { Route } from "./+types/cuenta-llaves-registro";
import { passkeyRegistration } from "~/features/accounts/passkeys.server";

/**
 * Adding a passkey, as JSON for the security page's script (decision 045): the options, then
 * the authenticator's answer. The feature answers 401 without a session (no redirect: a script
 * asks). Passkeys need JavaScript, so a plain GET has nothing here.
 */
export function action({ request, context }: Route.ActionArgs) {
  return passkeyRegistration({ request, clientAddress: context.clientAddress });
}

export function loader() {
  return new Response("Método no permitido.", { status: 405, headers: { Allow: "POST" } });
}
