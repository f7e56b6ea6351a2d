/**
 * The idempotency key of a public form (decision 036): a hidden field with a random key, made
 * when the form is rendered (on the server, so it works without JavaScript) and made again in
 * the browser for a page served from a cache. A retry of the same post carries the same key, so
 * the server can answer it as it answered the first instead of storing it twice.
 */
export const SUBMISSION_KEY_FIELD = "submissionKey";

/** The form a key takes: what `newSubmissionKey` makes, and nothing else is accepted. */
export const SUBMISSION_KEY_PATTERN = /^[0-9a-f-]{36}$/;

export function newSubmissionKey(): string {
  return crypto.randomUUID();
}
