import { vi } from "vitest";
import type * as LoggerModule from "~/platform/logger.server";
import { hostileInputSuite } from "../support/hostile-input-suite";

/**
 * Issue 12, 'hostile input', first half: the harness's own checks, the inputs the flood found,
 * the Stripe webhook, and the first half of the routes (tests/support/hostile-input-suite.ts).
 */

// Every line the site logs, at debug level, goes to memory where the test reads it.
vi.mock("~/platform/logger.server", async (importOriginal) => {
  const original = await importOriginal<typeof LoggerModule>();
  const { captureDestination } = await import("../support/hostile-logs");
  const logger = original.createLogger("debug", captureDestination);
  return { ...original, getLogger: () => logger };
});

hostileInputSuite("first");
