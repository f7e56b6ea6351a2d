import { identityMessages, PASSWORD_LIMITS } from "~/features/identity/identity-rules";
import type { ToastText } from "~/platform/http/toast";
import { isValidSpanishTaxId, normaliseTaxId } from "~/platform/validation/spanish-tax-id";
import { AEAT_NAME_MAX, hasControlCharacters } from "~/platform/validation/aeat-text";
import { z } from "~/platform/validation/zod";

/** Rules and Spanish messages of the account forms (spec sections 5 and 8), client and server. */
export { PASSWORD_LIMITS };
export const EMAIL_MAX = 255;
/** Profile fields; the bio's limit is the counter the form shows. */
export const PROFILE_LIMITS = {
  fullName: 100,
  phone: 30,
  company: 100,
  bio: 500,
  taxId: 20,
  billingName: AEAT_NAME_MAX,
  billingAddress: 200,
} as const;
/**
 * The addresses Better Auth accepts (zod's email pattern): it refuses any other with an error of
 * its own, which made sign-in and recovery answer 503, and a NUL byte reached the database.
 */
const EMAIL_PATTERN = z.regexes.email;

export const accountMessages = {
  emailInvalid: { title: "Email inválido", description: "Por favor, introduce un email válido." },
  emailTooLong: {
    title: "Email demasiado largo",
    description: `El email no puede superar los ${EMAIL_MAX} caracteres.`,
  },
  passwordRequired: {
    title: "Contraseña requerida",
    description: "Por favor, introduce tu contraseña.",
  },
  passwordTooShort: {
    title: `La contraseña debe tener al menos ${PASSWORD_LIMITS.min} caracteres`,
  },
  passwordTooLong: {
    title: "Contraseña demasiado larga",
    description: `La contraseña no puede superar los ${PASSWORD_LIMITS.max} caracteres.`,
  },
  passwordMismatch: { title: "Las contraseñas no coinciden" },
  passwordContextWord: {
    title: "Contraseña fácil de adivinar",
    description:
      "No uses el nombre de la empresa, de un servicio o de tu email como contraseña. Elige otra.",
  },
  passwordTooCommon: {
    title: "Contraseña demasiado común",
    description:
      "Esa contraseña aparece en listas de contraseñas filtradas. Elige otra más difícil de adivinar.",
  },
  humanCheckNotReady: {
    title: "Verificación de seguridad no lista",
    description: "La verificación de seguridad aún no está lista. Por favor, recarga la página.",
  },
  humanCheckFailed: {
    title: "Verificación de seguridad fallida",
    description:
      "No hemos podido comprobar que eres una persona. Por favor, recarga la página e inténtalo de nuevo.",
  },
  alreadyRegistered: { title: "Este email ya está registrado. Por favor, inicia sesión." },
  signUpFailed: {
    title: "Error al registrarse",
    description: "Por favor, intenta de nuevo más tarde.",
  },
  signUpSucceeded: {
    title: "Registro exitoso",
    description: "Revisa tu email para verificar tu cuenta.",
  },
  wrongCredentials: { title: "Email o contraseña incorrectos" },
  emailNotVerified: {
    title: "Email no verificado",
    description: "Confirma tu email con el enlace que te enviamos antes de iniciar sesión.",
  },
  welcome: { title: "¡Bienvenido!" },
  adminWrongCredentials: { title: "Usuario o contraseña incorrectos" },
  adminDenied: { title: "Acceso denegado: No tienes permisos de administrador" },
  signInFailed: {
    title: "Error al iniciar sesión",
    description: "Por favor, inténtalo de nuevo.",
  },
  ...identityMessages,
  resetMailSent: {
    title: "Email enviado",
    description:
      "Si existe una cuenta con ese email, recibirás un enlace para restablecer tu contraseña.",
  },
  resetMailFailed: {
    title: "Error al enviar email",
    description: "Por favor, inténtalo de nuevo.",
  },
  resetLinkInvalid: {
    title: "Enlace no válido o caducado",
    description: "Solicita un nuevo enlace para restablecer tu contraseña.",
  },
  passwordUpdated: {
    title: "Contraseña actualizada",
    description: "Ya puedes iniciar sesión con tu nueva contraseña.",
  },
  resendSent: { title: "Email enviado", description: "Revisa tu bandeja de entrada y spam." },
  resendFailed: {
    title: "Error al reenviar el email",
    description: "Por favor, inténtalo de nuevo en unos minutos.",
  },
  resendNoEmail: { title: "No se encontró tu email. Por favor, intenta registrarte de nuevo." },
  verificationLinkInvalid: {
    title: "Enlace no válido o caducado",
    description: "Pulsa «Reenviar Email» para recibir un enlace nuevo.",
  },
  signedOut: { title: "Sesión cerrada" },
  profileSaved: {
    title: "Perfil actualizado",
    description: "Tus cambios se han guardado correctamente",
  },
  profileSaveFailed: { title: "Error al guardar", description: "Por favor, inténtalo de nuevo." },
  /** /perfil opens without the form when the profile cannot be read (spec section 8). */
  profileLoadFailed: {
    title: "Error al cargar el perfil",
    description: "Recarga la página para intentarlo de nuevo.",
  },
  fullNameTooLong: {
    title: "Nombre demasiado largo",
    description: `El nombre no puede superar los ${PROFILE_LIMITS.fullName} caracteres.`,
  },
  phoneInvalid: {
    title: "Teléfono no válido",
    description: `Usa solo números, espacios y los signos + ( ) -, hasta ${PROFILE_LIMITS.phone} caracteres.`,
  },
  companyTooLong: {
    title: "Empresa demasiado larga",
    description: `El nombre de la empresa no puede superar los ${PROFILE_LIMITS.company} caracteres.`,
  },
  bioTooLong: {
    title: "Biografía demasiado larga",
    description: `La biografía no puede superar los ${PROFILE_LIMITS.bio} caracteres.`,
  },
  taxIdInvalid: {
    title: "NIF, NIE o CIF no válido",
    description: "Revisa los números y el carácter de control de tu NIF, NIE o CIF.",
  },
  billingNameRequired: {
    title: "Falta el nombre de facturación",
    description: "Con un NIF, NIE o CIF, indica también a nombre de quién emitimos la factura.",
  },
  billingNameInvalid: {
    title: "Nombre de facturación no válido",
    description:
      "El nombre o la razón social no puede llevar saltos de línea ni caracteres de control.",
  },
  billingNameTooLong: {
    title: "Nombre de facturación demasiado largo",
    description: `El nombre de facturación no puede superar los ${PROFILE_LIMITS.billingName} caracteres.`,
  },
  billingAddressTooLong: {
    title: "Dirección demasiado larga",
    description: `La dirección de facturación no puede superar los ${PROFILE_LIMITS.billingAddress} caracteres.`,
  },
  passwordChangeMailSent: { title: "Revisa tu correo para cambiar la contraseña" },
  tooManyAttempts: {
    title: "Demasiados intentos",
    description:
      "Has hecho demasiados intentos seguidos. Espera unos minutos y vuelve a intentarlo.",
  },
} satisfies Record<string, ToastText>;

export type AccountMessage = keyof typeof accountMessages;

const stop = (error: AccountMessage) => ({ error, abort: true });

export const normalizeEmail = (value: string) => value.trim().toLowerCase();

const emailField = z
  .string(stop("emailInvalid"))
  .check(
    z.trim(),
    z.toLowerCase(),
    z.regex(EMAIL_PATTERN, stop("emailInvalid")),
    z.maxLength(EMAIL_MAX, stop("emailTooLong")),
  );

const newPasswordField = z
  .string(stop("passwordTooShort"))
  .check(
    z.minLength(PASSWORD_LIMITS.min, stop("passwordTooShort")),
    z.maxLength(PASSWORD_LIMITS.max, stop("passwordTooLong")),
  );

const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>(
  (values) => values.password === values.confirmPassword,
  { error: "passwordMismatch", path: ["confirmPassword"] },
);

const confirmationField = z._default(z.string(), "");

export const signUpSchema = z
  .object({ email: emailField, password: newPasswordField, confirmPassword: confirmationField })
  .check(passwordsMatch);

export const signInSchema = z.object({
  email: emailField,
  password: z
    .string(stop("passwordRequired"))
    .check(
      z.minLength(1, stop("passwordRequired")),
      z.maxLength(PASSWORD_LIMITS.max, stop("passwordTooLong")),
    ),
});

export const recoverySchema = z.object({ email: emailField });

export const newPasswordSchema = z
  .object({ password: newPasswordField, confirmPassword: confirmationField })
  .check(passwordsMatch);

/** A NUL byte is never typed text, and PostgreSQL cannot store one: it is dropped. */
const withoutNul = () => z.overwrite((value: string) => value.replaceAll("\u0000", ""));

const optionalText = (max: number, error: AccountMessage) =>
  z._default(z.string(), "").check(withoutNul(), z.trim(), z.maxLength(max, stop(error)));

/** The editable profile (spec: full name, phone, optional company, bio); every field may be empty. */
export const profileSchema = z
  .object({
    fullName: optionalText(PROFILE_LIMITS.fullName, "fullNameTooLong"),
    phone: optionalText(PROFILE_LIMITS.phone, "phoneInvalid").check(
      z.regex(/^[+\d\s().-]*$/, stop("phoneInvalid")),
    ),
    company: optionalText(PROFILE_LIMITS.company, "companyTooLong"),
    bio: optionalText(PROFILE_LIMITS.bio, "bioTooLong"),
    // Invoices: a NIF/NIE/CIF (checked with its control character) and the name to invoice make
    // them complete invoices; both optional, but a tax id without a name cannot be invoiced.
    taxId: optionalText(PROFILE_LIMITS.taxId, "taxIdInvalid").check(
      z.overwrite(normaliseTaxId),
      z.refine((value: string) => value === "" || isValidSpanishTaxId(value), stop("taxIdInvalid")),
    ),
    billingName: optionalText(PROFILE_LIMITS.billingName, "billingNameTooLong").check(
      z.refine((value: string) => !hasControlCharacters(value), stop("billingNameInvalid")),
    ),
    billingAddress: optionalText(PROFILE_LIMITS.billingAddress, "billingAddressTooLong"),
  })
  .check(
    z.refine<{ taxId: string; billingName: string }>(
      (profile) => profile.taxId === "" || profile.billingName !== "",
      { error: "billingNameRequired", path: ["billingName"] },
    ),
  );
