import { useEffect, useRef, useState } from "react";
import { newSubmissionKey, SUBMISSION_KEY_FIELD } from "~/platform/forms/submission-key";

/**
 * The hidden idempotency key of a public form (`platform/forms/submission-key.ts`). `kept` is the
 * key a refused post sent back, so that its retry is recognised; otherwise the server renders a
 * fresh key and the browser, once it runs, replaces it with its own (the page may come from a
 * cache that gave the same key to everyone).
 */
export function SubmissionKeyField({ kept }: { kept?: string }) {
  const [rendered] = useState(() => kept ?? newSubmissionKey());
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!kept && input.current) input.current.value = newSubmissionKey();
  }, [kept]);
  return (
    <input
      ref={input}
      type="hidden"
      name={SUBMISSION_KEY_FIELD}
      defaultValue={rendered}
      // A light page's script makes its own key for a form whose key is not a kept one.
      data-fresh={kept ? undefined : true}
      // The browser's first render makes another key; the one in the page is kept until the
      // effect above replaces it.
      suppressHydrationWarning
    />
  );
}
