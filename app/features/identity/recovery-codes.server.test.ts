import { describe, expect, it } from "vitest";
import { RECOVERY_CODE_ALPHABET, unambiguousRecoveryCodes } from "./recovery-codes.server";

describe("recovery codes", () => {
  it("are ten different xxxxx-xxxxx codes with no character a person can misread", () => {
    const codes = unambiguousRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    for (const confusable of ["0", "o", "1", "l", "i", "O", "I"])
      expect(RECOVERY_CODE_ALPHABET).not.toContain(confusable);
  });

  it("use every symbol of the alphabet over many codes (none is left out by mistake)", () => {
    const seen = new Set(unambiguousRecoveryCodes(400).join("").replaceAll("-", ""));
    expect([...seen].sort().join("")).toBe([...RECOVERY_CODE_ALPHABET].sort().join(""));
  });
});
