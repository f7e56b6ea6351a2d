import { availableParallelism, tmpdir } from "node:os";
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
    // One test file per core: Vitest's default leaves one core to its own process, which only
    // waits; on a 2-core machine that halved the run (decision 059).
    maxWorkers: availableParallelism(),
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
          // One migrated database per run, copied by every test file's (decision 059).
          globalSetup: ["tests/support/database-images.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
