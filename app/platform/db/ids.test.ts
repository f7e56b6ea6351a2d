import { describe, expect, it } from "vitest";
import { isUuid } from "./ids";

describe("isUuid", () => {
  it("accepts a uuid in either case", () => {
    expect(isUuid("0b6f3c1e-5d2a-4f8e-9c7b-1a2b3c4d5e6f")).toBe(true);
    expect(isUuid("0B6F3C1E-5D2A-4F8E-9C7B-1A2B3C4D5E6F")).toBe(true);
  });

  it("refuses what PostgreSQL would refuse as a uuid", () => {
    for (const value of ["-".repeat(36), "0b6f3c1e5d2a4f8e9c7b1a2b3c4d5e6f0000", "", "x", 42, null])
      expect(isUuid(value)).toBe(false);
  });
});
