import { expect, type Page } from "@playwright/test";

/** Opens the newest mail to `to` whose subject matches, in the dev mailbox, and returns its links. */
export async function linksOfLatestMail(
  page: Page,
  to: string,
  subject: RegExp,
): Promise<string[]> {
  await page.goto("/dev/correo");
  const entry = page
    .getByRole("link")
    .filter({ hasText: `Para: ${to}` })
    .filter({ hasText: subject })
    .first();
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(subject);
  return page
    .locator("main section ul a")
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
}
