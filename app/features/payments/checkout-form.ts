import type { FormSchema } from "~/platform/forms/form-answer";

/**
 * The purchase dialog's one rule, checked by the dialog and by the checkout: the consent to begin
 * at once, before paying (TRLGDCU art. 103 a), is never assumed. Written as a schema of the form
 * protocol without zod: the dialog opens on pages that load no other form.
 */
export const checkoutSchema: FormSchema<{ immediateStart: "yes" }> = {
  safeParse: (values) =>
    (values as Record<string, unknown> | null)?.immediateStart === "yes"
      ? { success: true, data: { immediateStart: "yes" } }
      : {
          success: false,
          error: {
            issues: [{ message: "immediateStartConsentRequired", path: ["immediateStart"] }],
          },
        },
};
