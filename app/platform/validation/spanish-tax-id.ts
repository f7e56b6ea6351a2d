/**
 * Spanish tax identifiers of people (Orden INT/2058/2008 and the DNI/NIE rules): a NIF is eight
 * digits and a check letter, a NIE is X, Y or Z (standing for 0, 1 and 2), seven digits and the
 * check letter. The letter is the number modulo 23 in this table.
 */
const CHECK_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const SHAPE = /^([XYZ]|\d)(\d{7})([A-Z])$/;

/** The identifier as it is stored and printed: upper case, without spaces, dots or dashes. */
export function normaliseTaxId(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, "");
}

/** Whether a (normalised) NIF or NIE is well formed and its check letter is right. */
export function isValidPersonalTaxId(value: string): boolean {
  const match = SHAPE.exec(value);
  if (!match) return false;
  const [, first, rest, letter] = match;
  const leading = { X: "0", Y: "1", Z: "2" }[first!] ?? first!;
  return CHECK_LETTERS[Number(leading + rest) % 23] === letter;
}
