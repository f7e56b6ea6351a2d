import { randomInt } from "node:crypto";

/**
 * The letters and digits of a recovery code: none that a person copying it from paper can take
 * for another (no 0/o, 1/l/i), all lower case (issue 39, item 6). 31 symbols, 10 of them a code:
 * about 49.5 bits, drawn from Node's CSPRNG.
 */
export const RECOVERY_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten recovery codes as Better Auth's two-factor plugin shows and stores them: `xxxxx-xxxxx`. */
export function unambiguousRecoveryCodes(amount = 10): string[] {
  const codes = new Set<string>();
  while (codes.size < amount) {
    const symbols = Array.from(
      { length: 10 },
      () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)],
    ).join("");
    codes.add(`${symbols.slice(0, 5)}-${symbols.slice(5)}`);
  }
  return [...codes];
}
