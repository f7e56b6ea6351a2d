import { z } from "~/platform/validation/zod";
import { serviceCodes } from "~/features/catalogue/services";

/**
 * The contact rules of spec section 5, shared by the form and the server action. Each check
 * stops at its first failure, and fields are declared in the spec's order, so the issues come
 * out in the order the spec reports them.
 */
export const CONTACT_LIMITS = {
  nameMin: 2,
  nameMax: 100,
  emailMax: 255,
  messageMin: 10,
  messageMax: 5000,
} as const;

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

export const contactSchema = z.object({
  name: z
    .string(stop("nameRequired"))
    .check(
      withoutNul(),
      z.trim(),
      z.minLength(1, stop("nameRequired")),
      z.minLength(CONTACT_LIMITS.nameMin, stop("nameTooShort")),
      z.maxLength(CONTACT_LIMITS.nameMax, stop("nameTooLong")),
    ),
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
  message: z
    .string(stop("messageRequired"))
    .check(
      withoutNul(),
      z.trim(),
      z.minLength(1, stop("messageRequired")),
      z.minLength(CONTACT_LIMITS.messageMin, stop("messageTooShort")),
      z.maxLength(CONTACT_LIMITS.messageMax, stop("messageTooLong")),
    ),
});

export type ContactInput = z.output<typeof contactSchema>;
export type ContactField = keyof ContactInput;
