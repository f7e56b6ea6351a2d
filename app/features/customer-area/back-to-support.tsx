import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { accountTabPath } from "./account-tabs";

/**
 * The way back from a ticket page to Mi Cuenta's Soporte tab. A module of its own: the ticket
 * pages would otherwise share all of Mi Cuenta's parts, and shared parts go to the site chunk
 * every public page downloads (vite.config.ts).
 */
export function BackToSupport() {
  return (
    <Link
      to={accountTabPath("soporte")}
      className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden />
      Volver a Soporte
    </Link>
  );
}
