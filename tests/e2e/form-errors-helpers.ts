import type { Locator, Page } from "@playwright/test";

/**
 * How a form's errors are checked against decision 055 (each error shown once): where a text is
 * on the page, how often, and what describes a control.
 */

/**
 * How many places on the page a person sees say `text`, toasts apart (a toast is asserted on its
 * own, only where the spec asks for one): visible elements, each counted once. Locators only, so
 * it works on a page without JavaScript too.
 */
export async function timesShown(page: Page, text: string): Promise<number> {
  return page
    .locator("body > :not([data-toast-host])")
    .getByText(text)
    .filter({ visible: true })
    .count();
}

/** The text of the elements that describe a control (its error, its hint). */
export async function description(control: Locator): Promise<string> {
  const ids = (await control.getAttribute("aria-describedby")) ?? "";
  const page = control.page();
  const texts = await Promise.all(
    ids
      .split(" ")
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).innerText()),
  );
  return texts.join(" ");
}

/** The box at the top of a form (its one message, or the summary of several). */
export const formBox = (form: Locator) => form.locator("[data-form-alert]");

/** The visible toasts. */
export const toasts = (page: Page) => page.locator("[data-toast]");
