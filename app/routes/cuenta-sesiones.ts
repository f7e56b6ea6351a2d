import { redirect } from "react-router";
import type { Route } from "./+types/cuenta-sesiones";
import { securityPagePath } from "~/features/accounts/security-paths";
import { manageSessions, requireSecurityActor } from "~/features/accounts/sessions.server";

/** Ending one session, or all ('Cerrar sesión en todos los dispositivos'): plain forms. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = await requireSecurityActor(request);
  return manageSessions({ request, clientAddress: context.clientAddress }, actor);
}

export async function loader({ request }: Route.LoaderArgs) {
  return redirect(securityPagePath(await requireSecurityActor(request)));
}
