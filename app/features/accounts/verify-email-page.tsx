import { AlertTriangle, CheckCircle2, MailCheck } from "lucide-react";
import { useEffect } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { ButtonLink } from "~/ui/button";
import { ValidatedForm } from "~/ui/form";
import type { resendVerification } from "./account-actions.server";
import type { DataOf, verificationPage } from "./account-pages.server";
import { accountMessages } from "./account-schemas";
import { AccountCard, AccountLink, SubmitButton } from "./account-ui";

/** Spec: after confirmation the page goes to /mi-cuenta (or the page chosen before) after 2 s. */
const REDIRECT_AFTER_VERIFICATION_MS = 2_000;
const POLL_INTERVAL_MS = 5_000;

const steps = [
  "Abre tu bandeja de entrada (y la carpeta de spam).",
  "Busca el email «Confirma tu email».",
  "Pulsa el botón «Confirmar email».",
  "Volverás aquí con tu cuenta activada.",
];

type ResendAnswer = DataOf<typeof resendVerification> | undefined;

/** /verificar-email */
export function VerifyEmailPage({
  page,
  answer,
}: {
  page: DataOf<typeof verificationPage>;
  answer: ResendAnswer;
}) {
  if (page.state === "verified") return <Verified next={page.next} />;
  if (page.state === "verified-elsewhere") return <VerifiedElsewhere />;
  return (
    <WaitingForConfirmation
      email={page.email}
      linkInvalid={page.state === "link-invalid"}
      answer={answer}
    />
  );
}

function Verified({ next }: { next: string | null }) {
  const navigate = useNavigate();
  const to = next ?? "/mi-cuenta";
  useEffect(() => {
    const timer = window.setTimeout(() => navigate(to), REDIRECT_AFTER_VERIFICATION_MS);
    return () => window.clearTimeout(timer);
  }, [navigate, to]);
  return (
    <AccountCard title="¡Email verificado!">
      <div className="flex flex-col items-center text-center">
        <CheckCircle2 className="size-14 text-emerald-600" aria-hidden />
        <p className="mt-4 text-slate-600">
          {next
            ? "Tu cuenta está activa. Te llevamos de vuelta a donde lo dejaste…"
            : "Tu cuenta está activa. Te llevamos a tu área de cliente…"}
        </p>
        <ButtonLink to={to} size="lg" className="mt-6 w-full">
          {next ? "Continuar" : "Ir a Mi Cuenta"}
        </ButtonLink>
      </div>
    </AccountCard>
  );
}

/**
 * The address is verified, but not in a session of this browser: the link was opened on another
 * device, or a second time. Nothing to wait for: the person signs in.
 */
function VerifiedElsewhere() {
  return (
    <AccountCard title="¡Email verificado!">
      <div className="flex flex-col items-center text-center">
        <CheckCircle2 className="size-14 text-emerald-600" aria-hidden />
        <p className="mt-4 text-slate-600">
          Tu cuenta está activa. Inicia sesión con tu email y tu contraseña para continuar.
        </p>
        <ButtonLink to="/login-cliente" size="lg" className="mt-6 w-full">
          Iniciar sesión
        </ButtonLink>
      </div>
    </AccountCard>
  );
}

/** Confirming in another tab signs this browser in: the page notices it without a reload. */
function useRevalidateWhileVisible() {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") void revalidate();
    }, POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [revalidate]);
}

function WaitingForConfirmation({
  email,
  linkInvalid,
  answer,
}: {
  email: string | null;
  linkInvalid: boolean;
  answer: ResendAnswer;
}) {
  useRevalidateWhileVisible();
  return (
    <AccountCard title="Verifica tu email">
      {linkInvalid ? <LinkInvalid /> : null}
      <div className="flex gap-3">
        <MailCheck className="size-8 shrink-0 text-brand-600" aria-hidden />
        <p className="text-slate-700">
          Te hemos enviado un email de confirmación
          {email ? (
            <>
              {" "}
              a <strong className="break-all text-ink">{email}</strong>
            </>
          ) : null}
          .
        </p>
      </div>
      <ol className="mt-6 list-decimal space-y-2 pl-5 text-sm text-slate-700">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="mt-6 flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
        <AlertTriangle className="size-5 shrink-0" aria-hidden />
        Debes verificar tu email antes de realizar pagos o usar servicios premium.
      </p>
      <ValidatedForm messages={accountMessages} answer={answer} className="mt-6">
        <SubmitButton sendingLabel="Enviando..." variant="secondary">
          Reenviar Email
        </SubmitButton>
      </ValidatedForm>
      <div className="mt-6 flex justify-between text-sm">
        <AccountLink to="/login-cliente">Iniciar sesión</AccountLink>
        <AccountLink to="/">Volver al inicio</AccountLink>
      </div>
    </AccountCard>
  );
}

function LinkInvalid() {
  const { title, description } = accountMessages.verificationLinkInvalid;
  return (
    <div
      role="alert"
      className="mb-5 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{description}</p>
    </div>
  );
}
