import { redirect } from "react-router";
import type { Route } from "./+types/cuenta-llaves-de-acceso";
import { managePasskey } from "~/features/accounts/passkeys.server";
import { securityPagePath } from "~/features/accounts/security-paths";
import { requireSecurityActor } from "~/features/accounts/sessions.server";

/** Renaming and deleting a passkey: plain forms of the security page, answered with a redirect. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireSecurityActor(request);
  return managePasskey({ request, clientAddress: context.clientAddress }, actor);
}

export async function loader({ request }: Route.LoaderArgs) {
  return redirect(securityPagePath(await requireSecurityActor(request)));
}
