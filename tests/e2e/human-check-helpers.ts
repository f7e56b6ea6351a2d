import type { Locator, Page } from "@playwright/test";

/** What the forms' proof of work says once the form may be sent. */
export const HUMAN_CHECK_SOLVED = "Comprobación de seguridad completada";

/** The one-line status of the proof of work in `scope` (a page or a form). */
export const humanCheckStatus = (scope: Page | Locator) =>
  scope.getByRole("status").filter({ hasText: "Comprobación de seguridad" });

/** The challenges the page asks for from now on (their URLs), to see when the check starts. */
export function challengeRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/altcha/challenge") urls.push(request.url());
  });
  return urls;
}
