/** The one shape of a message shown to a person: a title and, when it helps, a sentence more. */
export type ToastText = { title: string; description?: string };

export type ToastKind = "success" | "error" | "info";

/**
 * A message with its tone, as shown by the toaster and carried across a redirect. `milestone`
 * names what the visitor just achieved (a sign-up), for the page to report to analytics.
 */
export type Toast = ToastText & { kind: ToastKind; milestone?: string };
