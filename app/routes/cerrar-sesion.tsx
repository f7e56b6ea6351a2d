import { redirect } from "react-router";
import type { Route } from "./+types/cerrar-sesion";
import { signOut } from "~/features/accounts/account-actions.server";

/** Sign-out is a POST (a link could be triggered by another site); a GET just goes home. */
export function loader() {
  return redirect("/");
}

export function action({ request }: Route.ActionArgs) {
  return signOut({ request });
}
