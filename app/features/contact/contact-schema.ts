import { z } from "~/platform/validation/zod";
import { serviceCodes } from "~/features/catalogue/services";
import { CONTACT_LIMITS } from "./contact-limits";

/**
 * The contact rules of spec section 5, shared by the form and the server action. Each check
 * stops at its first failure, and fields are declared in the spec's order, so the issues come
 * out in the order the spec reports them.
 */
export { CONTACT_LIMITS };

/** The spec's simple pattern: text, at sign, text, dot, text. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ContactErrorCode =
  | "nameRequired"
  | "nameTooShort"
  | "nameTooLong"
  | "emailInvalid"
  | "serviceRequired"
  | "messageRequired"
  | "messageTooShort"
  | "messageTooLong";

const stop = (error: ContactErrorCode) => ({ error, abort: true });

/** A NUL byte is never typed text, and PostgreSQL cannot store one: it is dropped. */
const withoutNul = () => z.overwrite((value: string) => value.replaceAll("\u0000", ""));

/** Text that must be given, then trimmed to `min`–`max` characters; its codes start with `field`. */
function requiredText(field: "name" | "message", min: number, max: number) {
  return z
    .string(stop(`${field}Required`))
    .check(
      withoutNul(),
      z.trim(),
      z.minLength(1, stop(`${field}Required`)),
      z.minLength(min, stop(`${field}TooShort`)),
      z.maxLength(max, stop(`${field}TooLong`)),
    );
}

export const contactSchema = z.object({
  name: requiredText("name", CONTACT_LIMITS.nameMin, CONTACT_LIMITS.nameMax),
  email: z
    .string(stop("emailInvalid"))
    .check(
      withoutNul(),
      z.trim(),
      z.maxLength(CONTACT_LIMITS.emailMax, stop("emailInvalid")),
      z.regex(EMAIL_PATTERN, stop("emailInvalid")),
    ),
  // The form offers five codes; 'otro' arrives only from a pending Consultoría Puntual purchase.
  service: z.enum(serviceCodes, { error: "serviceRequired" }),
  message: requiredText("message", CONTACT_LIMITS.messageMin, CONTACT_LIMITS.messageMax),
});

export type ContactInput = z.output<typeof contactSchema>;
export type ContactField = keyof ContactInput;
