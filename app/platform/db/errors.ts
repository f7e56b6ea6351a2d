/**
 * True when a statement failed on a unique index (PostgreSQL's 23505), looking through the
 * driver's and the ORM's wrapping errors: for a keyed row, its twin was written first.
 */
export function isUniqueViolation(error: unknown, index: string): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code, constraint } = cause as { code?: string; constraint?: string };
    if (code === "23505") return constraint === undefined || constraint === index;
  }
  return false;
}
