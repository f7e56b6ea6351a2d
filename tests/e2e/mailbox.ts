import { expect, type Locator, type Page } from "@playwright/test";

/** The dev mailbox's entries (the mailbox open) of the mails to `to` whose subject matches. */
export function mailboxEntries(page: Page, to: string, subject?: string | RegExp): Locator {
  const entries = page.getByRole("link").filter({ hasText: `Para: ${to}` });
  return subject === undefined ? entries : entries.filter({ hasText: subject });
}

/** Opens the newest mail to `to` whose subject matches, in the dev mailbox, and returns its links. */
export async function linksOfLatestMail(
  page: Page,
  to: string,
  subject: RegExp,
): Promise<string[]> {
  await page.goto("/dev/correo");
  const entry = mailboxEntries(page, to, subject).first();
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(subject);
  return page
    .locator("main section ul a")
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
}
