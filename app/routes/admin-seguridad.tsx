import { data } from "react-router";
import type { Route } from "./+types/admin-seguridad";
import { SecurityPage } from "~/features/accounts/second-factor-pages";
import {
  secondFactorSettings,
  secondFactorSettingsAction,
} from "~/features/accounts/second-factor-settings.server";
import { PasskeysSection, SessionsSection } from "~/features/accounts/security-sections";
import { securitySections } from "~/features/accounts/sessions.server";
import { requireStaffEnrolling } from "~/features/identity/session.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Verificación en dos pasos · Panel de Administración",
    description: "Panel interno.",
    path: "/admin/seguridad",
  });

// The one staff page open without a second factor: it is where staff enrol one (decision 044).
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaffEnrolling({ request, context });
  // Passkeys and sessions (decision 045) are sections of the same page, with their own forms.
  const [settings, security] = await Promise.all([
    secondFactorSettings(staff, request),
    securitySections(request, staff),
  ]);
  // The codes just made are shown once: the headers clear the note that shows them.
  return data({ ...settings.page, security }, { headers: settings.headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaffEnrolling({ request, context });
  return secondFactorSettingsAction(
    { request, clientAddress: context.clientAddress },
    staff,
    "/admin/seguridad",
  );
}

export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SecurityPage settings={loaderData} answer={actionData} doneTo="/admin">
      <PasskeysSection passkeys={loaderData.security.passkeys} staff />
      <SessionsSection sessions={loaderData.security.sessions} />
    </SecurityPage>
  );
}
