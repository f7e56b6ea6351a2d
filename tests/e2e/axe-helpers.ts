import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The widths issue #28 looks at every page in: a phone's and a laptop's. */
export const phoneAndLaptop = [390, 1280] as const;

/** The height that goes with each width: a phone held upright, a laptop's window. */
export const heightFor = (width: number) => (width < 640 ? 844 : 900);

/**
 * axe's serious and critical findings on the page as it is now, each as "rule: elements", so a
 * failing test names them. axe runs as a script: a page without JavaScript cannot be checked, so
 * tests check the same page in a browser that runs scripts.
 */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
}

/**
 * The same, once the toasts have gone: one fading in or out fails contrast, and one may sit on
 * what axe reads.
 */
export async function seriousViolationsWithoutToasts(page: Page) {
  await expect(page.locator("[data-toast]")).toHaveCount(0, { timeout: 10_000 });
  return seriousViolations(page);
}

/** How many pixels the page scrolls sideways at its width: 0 or less when it fits. */
export function sidewaysScroll(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * Looks at the page at its width as a person would: nothing makes it scroll sideways, and, when
 * `dir` is set, a screenshot named `name` is kept there (the whole page unless `window` is asked:
 * what the window shows matters where the page landed on an anchor).
 */
export async function lookAt(
  page: Page,
  name: string,
  dir: string | undefined,
  { window = false }: { window?: boolean } = {},
) {
  const width = page.viewportSize()?.width;
  expect(await sidewaysScroll(page), `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(
    0,
  );
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: !window });
}
