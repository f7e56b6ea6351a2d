import { AlertTriangle, CheckCircle2, MailCheck } from "lucide-react";
import { useEffect } from "react";
import { data, Link, useNavigate, useNavigation, useRevalidator } from "react-router";
import type { Route } from "./+types/verificar-email";
import { resendVerification } from "~/features/accounts/account-actions.server";
import { accountMessages } from "~/features/accounts/account-schemas";
import { AccountCard } from "~/features/accounts/account-ui";
import { takeReturnPath } from "~/features/identity/return-path.server";
import { pendingVerificationCookie } from "~/features/identity/journey-cookies.server";
import { getViewer } from "~/features/identity/session.server";
import { pageMeta } from "~/features/seo/meta";
import { Button, ButtonLink } from "~/ui/button";
import { ValidatedForm } from "~/ui/form";

/** Spec: after confirmation the page goes to /mi-cuenta (or the page chosen before) after 2 s. */
const REDIRECT_AFTER_VERIFICATION_MS = 2_000;
const POLL_INTERVAL_MS = 5_000;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Verifica tu email",
    description: "Confirma tu dirección de email para activar tu cuenta.",
    path: "/verificar-email",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  const { viewer, headers } = await getViewer(request);
  if (viewer?.emailVerified) {
    // The page chosen before signing up (a service, a guarded page) comes before Mi Cuenta.
    const kept = await takeReturnPath(request);
    if (kept.header) headers.append("Set-Cookie", kept.header);
    return data({ state: "verified" as const, email: viewer.email, next: kept.path }, { headers });
  }
  const pending = (await pendingVerificationCookie().parse(request.headers.get("Cookie"))) as
    string | null;
  const state = new URL(request.url).searchParams.has("error") ? "link-invalid" : "sent";
  return data(
    { state: state as "sent" | "link-invalid", email: pending ?? viewer?.email ?? null },
    { headers },
  );
}

export function action({ request, context }: Route.ActionArgs) {
  return resendVerification({ request, clientAddress: context.clientAddress });
}

const steps = [
  "Abre tu bandeja de entrada (y la carpeta de spam).",
  "Busca el email «Confirma tu email».",
  "Pulsa el botón «Confirmar email».",
  "Volverás aquí con tu cuenta activada.",
];

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state === "verified") return <Verified next={loaderData.next} />;
  return (
    <WaitingForConfirmation
      email={loaderData.email}
      linkInvalid={loaderData.state === "link-invalid"}
      actionData={actionData}
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

function WaitingForConfirmation({
  email,
  linkInvalid,
  actionData,
}: {
  email: string | null;
  linkInvalid: boolean;
  actionData: Route.ComponentProps["actionData"];
}) {
  const busy = useNavigation().state === "submitting";
  const { revalidate } = useRevalidator();
  // Confirming in another tab signs this browser in: notice it without a reload.
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") void revalidate();
    }, POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [revalidate]);
  return (
    <AccountCard title="Verifica tu email">
      {linkInvalid ? (
        <div
          role="alert"
          className="mb-5 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          <p className="font-semibold">{accountMessages.verificationLinkInvalid.title}</p>
          <p className="mt-1">{accountMessages.verificationLinkInvalid.description}</p>
        </div>
      ) : null}
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
      <ValidatedForm messages={accountMessages} answer={actionData} className="mt-6">
        <Button type="submit" variant="secondary" size="lg" className="w-full" disabled={busy}>
          {busy ? "Enviando..." : "Reenviar Email"}
        </Button>
      </ValidatedForm>
      <div className="mt-6 flex justify-between text-sm">
        <Link to="/login-cliente" className="font-semibold text-brand-700 underline">
          Iniciar sesión
        </Link>
        <Link to="/" className="font-semibold text-brand-700 underline">
          Volver al inicio
        </Link>
      </div>
    </AccountCard>
  );
}
