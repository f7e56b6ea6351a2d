import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, TEST_CHROMIUM } from "./tests/support/chromium";

// Playwright reads this file again in every worker: choose the port and data directory once.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    "-e",
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim();
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), "e2e-data-"));
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  reporter: "list",
  // Whole customer journeys (sign-up, mail, verification, payment) run in one test; the longest
  // takes about 25 s on a quiet machine and CI may share this one with other work (2.5x slower
  // measured). A ceiling, never a wait: every step waits for what a person would see.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    locale: "es-ES",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: existsSync(TEST_CHROMIUM) ? TEST_CHROMIUM : undefined,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], channel: undefined },
      testIgnore: /mobile\.spec\.ts/,
    },
    {
      name: "mobile",
      use: { ...devices["Pixel 7"], channel: undefined },
      testMatch: /mobile\.spec\.ts/,
    },
  ],
  webServer: {
    command: "node build/server/index.js",
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR!,
      // Many tests send enquiries from the same address.
      CONTACT_RATE_LIMIT: "1000",
      AUTH_ADDRESS_RATE_LIMIT: "1000",
      ADMIN_EMAIL: "admin@verticedigital.es",
      ADMIN_PASSWORD: "admin-password-e2e",
      LOG_LEVEL: "warn",
    },
  },
});
