import type { Route } from "./+types/api-contacto";
import { handleContactSubmission } from "~/features/contact/contact-action.server";

/**
 * The contact form's answer as JSON, for a light page's script (decision 038): the same action
 * as a post to /contacto, without rendering the page around the form.
 */
export function action({ request, context }: Route.ActionArgs) {
  return handleContactSubmission(request, context.clientAddress);
}

export function loader() {
  return new Response("Método no permitido.", { status: 405, headers: { Allow: "POST" } });
}
