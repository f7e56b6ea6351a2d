import { createHash } from "node:crypto";
import type { FormFields } from "./form-answer";
import { SUBMISSION_KEY_FIELD, SUBMISSION_KEY_PATTERN } from "./submission-key";

/**
 * The key a post is stored under: the form's key hashed with what was sent. A page served from
 * a cache gives every visitor the same key until the browser makes its own; with the content in
 * the hash, only a true repeat (same key, same text) is taken for a retry. Undefined when the
 * post has no well-formed key (a page from before the key, a script): then it is never deduplicated.
 */
export function submissionKeyOf(fields: FormFields, content: string[]): string | undefined {
  const key = fields[SUBMISSION_KEY_FIELD];
  if (!key || !SUBMISSION_KEY_PATTERN.test(key)) return undefined;
  return createHash("sha256")
    .update(JSON.stringify([key, ...content]))
    .digest("base64url");
}
