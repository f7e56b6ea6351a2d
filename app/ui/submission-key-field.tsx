import { useEffect, useRef } from "react";
import {
  newSubmissionKey,
  RENDERED_SUBMISSION_KEY,
  SUBMISSION_KEY_FIELD,
} from "~/platform/forms/submission-key";

/**
 * The hidden idempotency key of a public form (`platform/forms/submission-key.ts`). `kept` is the
 * key a refused post sent back, so that its retry is recognised; otherwise the server renders the
 * shared key and the browser, once it runs, replaces it with its own (here, or in a light page's
 * script for the inputs marked `data-fresh`).
 */
export function SubmissionKeyField({ kept }: { kept?: string }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!kept && input.current) input.current.value = newSubmissionKey();
  }, [kept]);
  return (
    <input
      ref={input}
      type="hidden"
      name={SUBMISSION_KEY_FIELD}
      defaultValue={kept ?? RENDERED_SUBMISSION_KEY}
      data-fresh={kept ? undefined : true}
    />
  );
}
