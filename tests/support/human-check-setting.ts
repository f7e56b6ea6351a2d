import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "~/platform/config.server";

/**
 * Turns the human check on (HUMAN_CHECK=altcha) for the tests of the calling file or describe
 * block, and back off after them: off is the tests' default (vitest.config.ts).
 */
export function withHumanCheckOn() {
  beforeAll(() => {
    process.env.HUMAN_CHECK = "altcha";
    resetConfigForTests();
  });
  afterAll(() => {
    process.env.HUMAN_CHECK = "off";
    resetConfigForTests();
  });
}
