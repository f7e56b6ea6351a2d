/** The one shape of a message shown to a person: a title and, when it helps, a sentence more. */
export type ToastText = { title: string; description?: string };

export type ToastKind = "success" | "error" | "info";

/** A message with its tone, as shown by the toaster and carried across a redirect. */
export type Toast = ToastText & { kind: ToastKind };
