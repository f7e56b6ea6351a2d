/**
 * The contact form's lengths (spec section 5), apart from its schema so that the messages can
 * name them without bringing zod into a light page's first script.
 */
export const CONTACT_LIMITS = {
  nameMin: 2,
  nameMax: 100,
  emailMax: 255,
  messageMin: 10,
  messageMax: 5000,
} as const;
