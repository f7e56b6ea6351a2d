import type { Route } from "./+types/cuenta-llaves-entrada";
import { passkeySignIn } from "~/features/accounts/passkeys.server";

/**
 * Signing in with a passkey, as JSON for the sign-in pages' script (decision 045): open to
 * anyone, rate limited and counted like passwords by the feature.
 */
export function action({ request, context }: Route.ActionArgs) {
  return passkeySignIn({ request, clientAddress: context.clientAddress });
}

export function loader() {
  return new Response("Método no permitido.", { status: 405, headers: { Allow: "POST" } });
}
