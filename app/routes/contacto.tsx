import type { Route } from "./+types/contacto";
import {
  handleContactSubmission,
  type ContactAnswer,
} from "~/features/contact/contact-action.server";
import { ContactSection } from "~/features/contact/contact-section";
import { pageMeta } from "~/features/seo/meta";
import { siteFromMatches } from "~/features/seo/site";
import { lightPageHandle } from "~/platform/http/light-page";

export const handle = lightPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Contacto",
    description:
      "Cuéntanos qué necesitas y un especialista te responderá en menos de 24 horas, sin compromiso.",
    path: "/contacto",
  });

export function action({ request, context }: Route.ActionArgs) {
  return handleContactSubmission(request, context.clientAddress);
}

/** In the browser, a dropped connection becomes the 'Error al enviar' toast, not an error page. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch {
    return { errors: [{ code: "error" }] } satisfies ContactAnswer;
  }
}

export default function Contact({ matches, actionData }: Route.ComponentProps) {
  return (
    <ContactSection site={siteFromMatches(matches)} serverResult={actionData} headingLevel="h1" />
  );
}
