import type { Page } from "@playwright/test";

export const contactForm = (page: Page) =>
  page.getByRole("form", { name: "Formulario de contacto" });

/** What a form with the human check says to a visitor without JavaScript. */
export const NEEDS_JAVASCRIPT =
  "Para enviar este formulario necesitas activar JavaScript: lo usamos para una comprobación de seguridad sin cookies.";

/**
 * Without JavaScript the contact form cannot be sent: its human check needs it. To see how the
 * server answers a post all the same (its page, without JavaScript), the browser's navigation to
 * /contacto is turned into the post the form would make.
 */
export async function postContactWithoutScript(page: Page, fields: Record<string, string>) {
  await page.route(
    "**/contacto",
    (route) =>
      route.continue({
        method: "POST",
        postData: new URLSearchParams(fields).toString(),
        headers: {
          ...route.request().headers(),
          "content-type": "application/x-www-form-urlencoded",
        },
      }),
    { times: 1 },
  );
  await page.goto("/contacto");
}
