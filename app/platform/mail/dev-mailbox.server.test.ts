import { describe, expect, it } from "vitest";
import { devMailboxOpenTo } from "./dev-mailbox.server";

describe("the dev mailbox", () => {
  it("opens, in local mode, only to a browser on the same machine", () => {
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
      expect(devMailboxOpenTo(address)).toBe(true);
    for (const address of ["192.168.1.20", "10.0.0.5", "::ffff:192.168.1.20", "unknown", ""])
      expect(devMailboxOpenTo(address)).toBe(false);
  });
});
