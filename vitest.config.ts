import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { lightPageScript } from "./build-tools/light-page-script";

// Kept apart from vite.config.ts so the React Router plugin is not loaded in tests. The light
// pages' script plugin is: the root imports its address.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  plugins: [lightPageScript()],
  test: {
    environment: "node",
    env: { LOG_LEVEL: "silent", HUMAN_CHECK: "off", DATA_DIR: path.join(tmpdir(), "vitest-data") },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["app/**/*.test.{ts,tsx}"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: [
            "tests/integration/**/*.test.ts",
            // PostgreSQL-only behaviour (several instances on one database) runs in that pass.
            ...(process.env.TEST_DATABASE_URL ? ["tests/postgres/**/*.test.ts"] : []),
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
