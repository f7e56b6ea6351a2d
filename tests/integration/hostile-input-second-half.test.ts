import { vi } from "vitest";
import type * as LoggerModule from "~/platform/logger.server";
import { hostileInputSuite } from "../support/hostile-input-suite";

/**
 * Issue 12, 'hostile input', second half of the routes, on its own database in a second test
 * file so that two cores share the floods (tests/support/hostile-input-suite.ts, decision 059).
 */

// Every line the site logs, at debug level, goes to memory where the test reads it.
vi.mock("~/platform/logger.server", async (importOriginal) => {
  const original = await importOriginal<typeof LoggerModule>();
  const { captureDestination } = await import("../support/hostile-logs");
  const logger = original.createLogger("debug", captureDestination);
  return { ...original, getLogger: () => logger };
});

hostileInputSuite("second");
