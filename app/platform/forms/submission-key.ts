/**
 * The idempotency key of a public form (decision 036): a hidden field with a random key, made
 * when the form is rendered (on the server, so it works without JavaScript) and made again in
 * the browser for a page served from a cache. A retry of the same post carries the same key, so
 * the server can answer it as it answered the first instead of storing it twice.
 */
export const SUBMISSION_KEY_FIELD = "submissionKey";

/** The form a key takes: what `newSubmissionKey` makes, and nothing else is accepted. */
export const SUBMISSION_KEY_PATTERN = /^[0-9a-f-]{36}$/;

/**
 * The key the server renders when it has none to keep: the same in every render, so a public
 * page is the same bytes for every visitor and every instance (decision 038), as a cached page
 * always was. The browser replaces it with its own; a post without JavaScript keeps it, and the
 * text posted still tells one enquiry from another (submission-key.server.ts).
 */
export const RENDERED_SUBMISSION_KEY = "00000000-0000-4000-8000-000000000000";

export function newSubmissionKey(): string {
  return crypto.randomUUID();
}
