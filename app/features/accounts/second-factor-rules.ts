import type { ToastText } from "~/platform/http/toast";
import { z } from "~/platform/validation/zod";
import { accountMessages } from "./account-schemas";

/**
 * Rules and Spanish messages of the second factor (decision 044): the code step of the sign-in
 * and the Verificación en dos pasos page. Shared by the browser and the server.
 */
export const secondFactorMessages = {
  codeRequired: {
    title: "Código requerido",
    description: "Introduce el código de 6 cifras de tu aplicación de autenticación.",
  },
  codeMalformed: {
    title: "Código no válido",
    description: "El código de verificación tiene 6 cifras.",
  },
  recoveryCodeMalformed: {
    title: "Código de recuperación no válido",
    description: "Un código de recuperación tiene 10 letras y cifras, como abcde-12345.",
  },
  codeWrong: {
    title: "Código incorrecto",
    description: "Comprueba la hora de tu móvil y usa el código que se muestra ahora.",
  },
  recoveryCodeWrong: {
    title: "Código de recuperación incorrecto",
    description: "Ese código no es válido o ya se ha usado. Cada código sirve una sola vez.",
  },
  codeReused: {
    title: "Código ya usado",
    description: "Ese código ya se ha usado. Espera a que tu aplicación muestre uno nuevo.",
  },
  checkInProgress: {
    title: "Ya se está comprobando un código",
    description: "Espera un momento y vuelve a intentarlo.",
  },
  challengeExpired: {
    title: "La verificación ha caducado",
    description: "Por seguridad, vuelve a introducir tu contraseña.",
  },
  passwordRequired: accountMessages.passwordRequired,
  passwordWrong: {
    title: "Contraseña incorrecta",
    description: "Para cambiar la verificación en dos pasos, confirma tu contraseña actual.",
  },
  alreadyEnabled: {
    title: "La verificación en dos pasos ya está activada",
  },
  notEnabled: {
    title: "La verificación en dos pasos no está activada",
  },
  staffCannotDisable: {
    title: "El personal no puede desactivarla",
    description:
      "La verificación en dos pasos es obligatoria para el personal. Si has perdido tu móvil, pide a un administrador que la restablezca.",
  },
  setupExpired: {
    title: "Empieza de nuevo",
    description: "La configuración no se completó. Vuelve a confirmar tu contraseña.",
  },
  enabled: {
    title: "Verificación en dos pasos activada",
    description: "Guarda tus códigos de recuperación en un lugar seguro.",
  },
  disabled: { title: "Verificación en dos pasos desactivada" },
  recoveryCodesRenewed: {
    title: "Códigos de recuperación nuevos",
    description: "Los anteriores ya no sirven. Guarda estos en un lugar seguro.",
  },
  stepUpPasswordWrong: {
    title: "Contraseña incorrecta",
    description: "Escribe la contraseña con la que inicias sesión.",
  },
  stepUpDone: { title: "Identidad confirmada", description: "Ya puedes continuar." },
  failed: {
    title: "No se ha podido completar",
    description: "Por favor, inténtalo de nuevo en unos minutos.",
  },
  tooManyAttempts: accountMessages.tooManyAttempts,
  welcome: accountMessages.welcome,
  adminDenied: accountMessages.adminDenied,
} satisfies Record<string, ToastText>;

export type SecondFactorMessage = keyof typeof secondFactorMessages;

const stop = (error: SecondFactorMessage) => ({ error, abort: true });

/** Spaces and hyphens people type between the digits are not part of a code. */
const digitsOnly = () => z.overwrite((value: string) => value.replace(/[\s-]/g, ""));

/** A TOTP code of RFC 6238 as the plugin makes them: 6 digits. */
export const TOTP_CODE_PATTERN = /^\d{6}$/;

/** Better Auth's recovery codes: 10 letters and digits, shown as `abcde-12345`. */
export const RECOVERY_CODE_PATTERN = /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/;

/** A recovery code as stored: the two halves joined by a hyphen (letters keep their case). */
export function normaliseRecoveryCode(code: string): string {
  const plain = code.replace(/[\s-]/g, "");
  return `${plain.slice(0, 5)}-${plain.slice(5)}`;
}

const totpCode = z
  .string(stop("codeRequired"))
  .check(
    digitsOnly(),
    z.minLength(1, stop("codeRequired")),
    z.regex(TOTP_CODE_PATTERN, stop("codeMalformed")),
  );

const recoveryCode = z.string(stop("codeRequired")).check(
  z.overwrite((value: string) => value.trim()),
  z.minLength(1, stop("codeRequired")),
  z.regex(RECOVERY_CODE_PATTERN, stop("recoveryCodeMalformed")),
);

/** The code step of the sign-in with the authenticator app's code. */
export const totpCodeSchema = z.object({ code: totpCode });

/** The code step with one of the recovery codes instead. */
export const recoveryCodeSchema = z.object({ code: recoveryCode });

/** A change of the factor asks for the password again (OWASP ASVS 5.0, V6.2). */
export const passwordConfirmSchema = z.object({
  password: z.string(stop("passwordRequired")).check(z.minLength(1, stop("passwordRequired"))),
});

/** Confirming who you are (step-up, decision 063): the password, and the app's code if any. */
export const stepUpSchema = passwordConfirmSchema;
export const stepUpWithCodeSchema = z.object({
  password: z.string(stop("passwordRequired")).check(z.minLength(1, stop("passwordRequired"))),
  code: totpCode,
});
