import { Copy, Download, KeyRound, ShieldCheck } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "~/ui/button";
import { Field, ValidatedForm } from "~/ui/form";
import { useIntentAnswer } from "~/ui/signed-in/intent-answer";
import { useHydrated } from "~/ui/use-hydrated";
import { AccountCard, SubmitButton } from "./account-ui";
import {
  passwordConfirmSchema,
  recoveryCodeSchema,
  secondFactorMessages,
  totpCodeSchema,
} from "./second-factor-rules";

/** What a second-factor form's action may answer (refusals, notices, and the page's facts). */
type Answer =
  | {
      errors?: readonly { code: string; field?: string }[];
      notice?: string;
      setup?: { uri: string; secret: string; qrDataUri: string };
      recoveryCodes?: string[];
    }
  | undefined;

/** The code field: one-time-code, so phones offer the code a message or an app just gave. */
export function CodeField({ recovery }: { recovery: boolean }) {
  return recovery ? (
    <Field
      label="Código de recuperación"
      name="code"
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      placeholder="abcde-12345"
      required
      hint="Cada código de recuperación sirve una sola vez."
    />
  ) : (
    <Field
      label="Código de verificación"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9 ]*"
      maxLength={7}
      required
      hint="Las 6 cifras que muestra ahora tu aplicación de autenticación."
    />
  );
}

/**
 * The sign-in's second step, at /login/verificacion and /login-cliente/verificacion: a plain
 * form (it works without JavaScript), the app's code or, at `?metodo=recuperacion`, a recovery
 * code. `children` is where other factors (a passkey) offer themselves.
 */
export function SignInCodePage({
  page,
  answer,
  children,
}: {
  page: { door: "staff" | "customers"; email: string; totp: boolean; recovery: boolean };
  answer: Answer;
  children?: ReactNode;
}) {
  const { email, totp, recovery } = page;
  return (
    <AccountCard
      title="Verificación en dos pasos"
      subtitle={
        <>
          Has iniciado sesión como <strong className="break-all">{email}</strong>.{" "}
          {!totp
            ? "Confirma que eres tú con tu llave de acceso."
            : recovery
              ? "Introduce uno de tus códigos de recuperación."
              : "Introduce el código de verificación de tu aplicación de autenticación."}
        </>
      }
    >
      {totp ? (
        <ValidatedForm
          schema={recovery ? recoveryCodeSchema : totpCodeSchema}
          messages={secondFactorMessages}
          answer={answer}
          className="space-y-4"
          aria-label={
            recovery ? "Entrar con un código de recuperación" : "Segundo paso del inicio de sesión"
          }
        >
          <input type="hidden" name="method" value={recovery ? "recovery" : "totp"} />
          <CodeField recovery={recovery} />
          <SubmitButton sendingLabel="Comprobando...">Verificar</SubmitButton>
        </ValidatedForm>
      ) : null}
      {children}
      {totp ? (
        <p className="mt-6 text-center text-sm text-slate-600">
          {recovery ? (
            <Link to="?" className="font-semibold text-brand-700 underline">
              Usar el código de la aplicación
            </Link>
          ) : (
            <>
              ¿No tienes tu móvil?{" "}
              <Link to="?metodo=recuperacion" className="font-semibold text-brand-700 underline">
                Usar un código de recuperación
              </Link>
            </>
          )}
        </p>
      ) : null}
    </AccountCard>
  );
}

/** Mi Cuenta → Configuración: where a customer turns the second factor on (opt-in). */
export function SecondFactorSection({ enabled }: { enabled: boolean }) {
  return (
    <section
      aria-labelledby="dos-pasos-title"
      className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="dos-pasos-title" className="flex items-center gap-2 text-xl font-semibold">
        <KeyRound className="size-5 text-brand-600" aria-hidden />
        Verificación en dos pasos
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        {enabled
          ? "Activada: al iniciar sesión te pedimos un segundo factor además de la contraseña."
          : "Protege tu cuenta con un código de tu móvil además de la contraseña."}
      </p>
      <Link
        to="/mi-cuenta/seguridad"
        className={`mt-4 ${buttonClasses({ variant: "secondary", size: "sm" })}`}
      >
        {enabled ? "Gestionar" : "Activar"}
      </Link>
    </section>
  );
}

type Settings = {
  email: string;
  enabled: boolean;
  recoveryCodesLeft: number | null;
  /** Started and not confirmed: 'Empezar' shows the same QR again. */
  pending: boolean;
  staff: boolean;
  /** Just made: shown this once. */
  recoveryCodes: string[] | null;
};

const intents = ["start", "confirm", "recovery-codes", "disable"] as const;

/**
 * Verificación en dos pasos: /admin/seguridad (staff, required) and /mi-cuenta/seguridad
 * (customers, opt-in). 1. the password, 2. the QR and the secret as text, confirmed by a code,
 * 3. the recovery codes, once. With it on: new recovery codes, and (customers) turning it off.
 * `children` shows other factors (passkeys) under it.
 */
export function SecurityPage({
  settings,
  answer,
  doneTo,
  children,
}: {
  settings: Settings;
  answer: Answer;
  /** Where 'Continuar' goes once the codes are saved. */
  doneTo: string;
  children?: ReactNode;
}) {
  const { answerFor } = useIntentAnswer(intents, "start", answer);
  const setup = answer?.setup;
  const codes = settings.recoveryCodes ?? answer?.recoveryCodes;
  return (
    <section className="bg-slate-50 px-4 py-12 sm:py-16">
      <div className="mx-auto w-full max-w-2xl space-y-6">
        <header>
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
            <ShieldCheck className="size-6 text-brand-600" aria-hidden />
            Verificación en dos pasos
          </h1>
          <p className="mt-2 text-sm text-slate-600">
            {settings.staff
              ? "Obligatoria para el personal: además de tu contraseña, al iniciar sesión te pediremos un código de tu aplicación de autenticación."
              : "Opcional: además de tu contraseña, al iniciar sesión te pediremos un código de tu aplicación de autenticación."}
          </p>
        </header>
        {codes ? (
          <RecoveryCodes codes={codes} email={settings.email} doneTo={doneTo} />
        ) : setup ? (
          <Card title="2. Escanea el código QR">
            <SetupStep setup={setup} answer={answer} />
          </Card>
        ) : settings.enabled ? (
          <EnabledCard settings={settings} answerFor={answerFor} />
        ) : (
          <Card title="1. Confirma tu contraseña">
            <p className="mb-4 text-sm text-slate-600">
              {settings.pending
                ? "Ya empezaste a activarla: escribe tu contraseña y verás el mismo código QR. Si ya lo escaneaste, tu aplicación sigue valiendo."
                : "Necesitarás una aplicación de autenticación en tu móvil (Google Authenticator, Microsoft Authenticator, 1Password, Aegis u otra compatible)."}
            </p>
            <PasswordForm
              intent="start"
              label={settings.pending ? "Continuar" : "Empezar"}
              answer={answerFor("start")}
            />
          </Card>
        )}
        {children}
      </div>
    </section>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="mt-4">{children}</div>
    </div>
  );
}

function PasswordForm({
  intent,
  label,
  answer,
  variant,
}: {
  intent: (typeof intents)[number];
  label: string;
  answer: Answer;
  variant?: "danger";
}) {
  return (
    <ValidatedForm
      schema={passwordConfirmSchema}
      messages={secondFactorMessages}
      answer={answer}
      className="space-y-4"
      aria-label={label}
    >
      <input type="hidden" name="intent" value={intent} />
      <Field
        label="Contraseña actual"
        name="password"
        type="password"
        autoComplete="current-password"
        required
      />
      <SubmitButton sendingLabel="Comprobando..." variant={variant}>
        {label}
      </SubmitButton>
    </ValidatedForm>
  );
}

function SetupStep({
  setup,
  answer,
}: {
  setup: NonNullable<Answer>["setup"] & {};
  answer: Answer;
}) {
  return (
    <div className="space-y-5">
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <img
          src={setup.qrDataUri}
          alt="Código QR para añadir la cuenta a tu aplicación de autenticación"
          width={192}
          height={192}
          className="size-48 shrink-0 rounded-lg ring-1 ring-slate-200"
        />
        <div className="min-w-0 text-sm text-slate-700">
          <p>Abre tu aplicación de autenticación y escanea el código.</p>
          <p className="mt-3">
            ¿No puedes escanearlo? Introduce esta clave a mano (tipo: basada en el tiempo):
          </p>
          <p
            className="mt-2 rounded-lg bg-slate-100 px-3 py-2 font-mono text-base break-all text-ink"
            data-totp-secret
          >
            {setup.secret}
          </p>
        </div>
      </div>
      <ValidatedForm
        schema={totpCodeSchema}
        messages={secondFactorMessages}
        answer={answer}
        className="space-y-4"
        aria-label="Confirmar la verificación en dos pasos"
      >
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="uri" value={setup.uri} />
        <CodeField recovery={false} />
        <SubmitButton sendingLabel="Comprobando...">Activar</SubmitButton>
      </ValidatedForm>
    </div>
  );
}

/** The codes, this once: downloadable (no script needed) and, with JavaScript, copyable. */
function RecoveryCodes({
  codes,
  email,
  doneTo,
}: {
  codes: string[];
  email: string;
  doneTo: string;
}) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const text = `Códigos de recuperación de ${email}\nCada código sirve una sola vez.\n\n${codes.join("\n")}\n`;
  return (
    <Card title="Códigos de recuperación">
      <p className="text-sm text-slate-700">
        Si pierdes el móvil, podrás entrar con uno de estos códigos. Cada uno sirve una sola vez.{" "}
        <strong>No volveremos a mostrarlos:</strong> descárgalos o cópialos y guárdalos en un lugar
        seguro, como un gestor de contraseñas.
      </p>
      <ol
        className="mt-4 grid grid-cols-2 gap-2 rounded-lg bg-slate-100 p-4 font-mono text-sm text-ink sm:grid-cols-2"
        aria-label="Códigos de recuperación"
        data-recovery-codes
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="mt-4 flex flex-wrap gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="codigos-de-recuperacion.txt"
          className={buttonClasses({ variant: "secondary", size: "sm" })}
        >
          <Download className="size-4" aria-hidden />
          Descargar
        </a>
        {hydrated ? (
          <Button
            type="button"
            variant="secondary"
            size="sm"
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(() => setCopied(true));
            }}
          >
            <Copy className="size-4" aria-hidden />
            {copied ? "Copiados" : "Copiar"}
          </Button>
        ) : null}
        <Link to={doneTo} className={buttonClasses({ size: "sm" })}>
          He guardado los códigos, continuar
        </Link>
      </div>
    </Card>
  );
}

function EnabledCard({
  settings,
  answerFor,
}: {
  settings: Settings;
  answerFor: (intent: (typeof intents)[number]) => Answer;
}) {
  return (
    <Card title="Activada">
      <p className="text-sm text-slate-700">
        Tu cuenta pide un código de tu aplicación de autenticación al iniciar sesión.
        {settings.recoveryCodesLeft !== null
          ? ` Te quedan ${settings.recoveryCodesLeft} códigos de recuperación sin usar.`
          : null}
      </p>
      <details className="mt-5">
        <summary className="cursor-pointer text-sm font-semibold text-brand-700">
          Generar códigos de recuperación nuevos
        </summary>
        <p className="mt-2 mb-4 text-sm text-slate-600">
          Los códigos anteriores dejarán de servir.
        </p>
        <PasswordForm
          intent="recovery-codes"
          label="Generar códigos nuevos"
          answer={answerFor("recovery-codes")}
        />
      </details>
      {settings.staff ? (
        <p className="mt-5 text-sm text-slate-600">
          ¿Has perdido el móvil? Entra con un código de recuperación o pide a otro administrador que
          restablezca tu verificación en dos pasos.
        </p>
      ) : (
        <details className="mt-5">
          <summary className="cursor-pointer text-sm font-semibold text-red-700">
            Desactivar la verificación en dos pasos
          </summary>
          <p className="mt-2 mb-4 text-sm text-slate-600">
            Tu cuenta volverá a estar protegida solo por la contraseña.
          </p>
          <PasswordForm
            intent="disable"
            label="Desactivar"
            variant="danger"
            answer={answerFor("disable")}
          />
        </details>
      )}
    </Card>
  );
}
