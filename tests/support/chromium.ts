import { existsSync } from "node:fs";

/**
 * How the browser tests and the benchmark start Chromium on a machine without a display:
 * Debian's packages (never a downloaded browser), with nothing running in the background.
 */
export const SYSTEM_CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";

/**
 * The browser tests run in Debian's `chromium-headless-shell` when it is installed: the same
 * engine without the full browser's window, GPU and compositor processes. Measured on this
 * 2-CPU machine, the whole Playwright suite took 3.7 min instead of 6.0 min and half the CPU
 * (decision 024). Lighthouse keeps the full browser, which it needs.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const TEST_CHROMIUM =
  process.env.CHROME_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : SYSTEM_CHROMIUM);

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
