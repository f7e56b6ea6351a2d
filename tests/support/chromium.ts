/**
 * How the browser tests and the benchmark start Chromium on a machine without a display:
 * Debian's package (never a downloaded browser), with nothing running in the background.
 */
export const SYSTEM_CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
