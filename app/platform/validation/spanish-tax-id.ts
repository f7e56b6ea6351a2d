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

/**
 * The letters a company's or entity's code (the old CIF, now its NIF) starts with, and the ones
 * whose control character is always a letter (P, Q, R, S, N, W) or always a digit (A, B, E, H).
 */
const COMPANY_SHAPE = /^([ABCDEFGHJNPQRSUVW])(\d{7})([\dA-J])$/;
const COMPANY_CONTROL_LETTERS = "JABCDEFGHI";

/** Whether a (normalised) company code is well formed and its control character is right. */
export function isValidCompanyTaxId(value: string): boolean {
  const match = COMPANY_SHAPE.exec(value);
  if (!match) return false;
  const [, kind, digits, control] = match;
  let sum = 0;
  for (const [index, digit] of [...digits!].entries()) {
    // Odd positions (1st, 3rd, …) count twice, their two digits added.
    const value = index % 2 === 0 ? Number(digit) * 2 : Number(digit);
    sum += Math.floor(value / 10) + (value % 10);
  }
  const check = (10 - (sum % 10)) % 10;
  const asLetter = COMPANY_CONTROL_LETTERS[check];
  if ("PQRSNW".includes(kind!)) return control === asLetter;
  if ("ABEH".includes(kind!)) return control === String(check);
  return control === String(check) || control === asLetter;
}

/** Whether a (normalised) NIF, NIE or company code (CIF) is a valid Spanish tax id. */
export function isValidSpanishTaxId(value: string): boolean {
  return isValidPersonalTaxId(value) || isValidCompanyTaxId(value);
}
