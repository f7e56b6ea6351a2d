import { data } from "react-router";
import type { Route } from "./+types/mi-cuenta-seguridad";
import { SecurityPage } from "~/features/accounts/second-factor-pages";
import {
  secondFactorSettings,
  secondFactorSettingsAction,
} from "~/features/accounts/second-factor-settings.server";
import { PasskeysSection, SessionsSection } from "~/features/accounts/security-sections";
import { securitySections } from "~/features/accounts/sessions.server";
import { requireCustomer } from "~/features/identity/session.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Verificación en dos pasos",
    description: "Tu área de cliente.",
    path: "/mi-cuenta/seguridad",
  });

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireCustomer(request);
  // Passkeys and sessions (decision 045) are sections of the same page, with their own forms.
  const [settings, security] = await Promise.all([
    secondFactorSettings(viewer, request),
    securitySections(request, { ...viewer, role: null }),
  ]);
  // The codes just made are shown once: the headers clear the note that shows them.
  return data({ ...settings.page, security }, { headers: settings.headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireCustomer(request);
  return secondFactorSettingsAction(
    { request, clientAddress: context.clientAddress },
    viewer,
    "/mi-cuenta/seguridad",
  );
}

export default function AccountSecurity({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SecurityPage settings={loaderData} answer={actionData} doneTo="/mi-cuenta?tab=configuracion">
      <PasskeysSection passkeys={loaderData.security.passkeys} staff={false} />
      <SessionsSection sessions={loaderData.security.sessions} />
    </SecurityPage>
  );
}
