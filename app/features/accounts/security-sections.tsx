import { KeyRound, Laptop, LogOut } from "lucide-react";
import { useState } from "react";
import { Form, useRevalidator } from "react-router";
import { Button } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import { showToast } from "~/ui/toast";
import { useHydrated } from "~/ui/use-hydrated";
import { createPasskey, signInWithPasskey, type CeremonyOutcome } from "./passkey-browser";
import { PASSKEY_NAME_MAX, securityMessages } from "./passkey-messages";
import type { SecuritySectionsData } from "./sessions.server";

/** Where the sections' plain forms post (routes/cuenta-llaves-de-acceso.ts, cuenta-sesiones.ts). */
export const SECURITY_FORMS = {
  passkeys: "/cuenta/llaves-de-acceso",
  sessions: "/cuenta/sesiones",
} as const;

const NEEDS_JAVASCRIPT =
  "Las llaves de acceso necesitan JavaScript: actívalo en tu navegador para usarlas.";

function JavaScriptNote() {
  return (
    <noscript>
      <p className="mt-2 text-sm text-amber-800">{NEEDS_JAVASCRIPT}</p>
    </noscript>
  );
}

/** Runs a ceremony with the button busy, and shows a refusal as a toast. */
function useCeremony(
  run: () => Promise<CeremonyOutcome>,
  done: (outcome: CeremonyOutcome) => void,
) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    let outcome: CeremonyOutcome;
    try {
      outcome = await run();
    } catch {
      outcome = { ok: false, error: "passkeyUnavailable" };
    }
    setBusy(false);
    if (!outcome.ok)
      showToast(
        outcome.error === "passkeyCancelled" ? "info" : "error",
        securityMessages[outcome.error],
        {
          id: "passkey",
        },
      );
    else done(outcome);
  };
  return { busy, start };
}

/**
 * 'Entrar con llave de acceso' on /login and /login-cliente, and 'Usar una llave de acceso' on
 * the second-factor step after a password. The browser offers the account's passkeys; a
 * passkey that verified its user signs in at once (decision 045).
 */
export function PasskeySignIn({
  door,
  secondFactor = false,
}: {
  door: "staff" | "customers";
  secondFactor?: boolean;
}) {
  const hydrated = useHydrated();
  const { busy, start } = useCeremony(
    () => signInWithPasskey(door, new URLSearchParams(window.location.search).get("volver")),
    (outcome) => window.location.assign(outcome.ok && outcome.to ? outcome.to : "/"),
  );
  return (
    <div className="mt-6 border-t border-slate-200 pt-6 text-center">
      {secondFactor ? null : <p className="mb-3 text-sm text-slate-600">O sin contraseña:</p>}
      <Button
        variant="secondary"
        className="w-full"
        disabled={!hydrated || busy}
        onClick={() => void start()}
      >
        <KeyRound className="size-4" aria-hidden />
        {busy
          ? "Esperando a la llave..."
          : secondFactor
            ? "Usar una llave de acceso"
            : "Entrar con llave de acceso"}
      </Button>
      <JavaScriptNote />
    </div>
  );
}

const sectionClass = "rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200";

/** 'Llaves de acceso': the account's passkeys, to add, rename and delete. */
export function PasskeysSection({
  passkeys,
  staff,
}: {
  passkeys: SecuritySectionsData["passkeys"];
  staff: boolean;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const { busy, start } = useCeremony(createPasskey, () => {
    showToast("success", securityMessages.passkeyAdded, { id: "passkey" });
    void revalidator.revalidate();
  });
  return (
    <section id="llaves-de-acceso" aria-labelledby="llaves-title" className={sectionClass}>
      <h2 id="llaves-title" className="flex items-center gap-2 text-xl font-semibold">
        <KeyRound className="size-5 text-brand-600" aria-hidden />
        Llaves de acceso
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        Entra sin contraseña con la huella, la cara o el PIN de tu dispositivo, o con una llave de
        seguridad. Una llave de acceso vale por la contraseña y el segundo factor a la vez
        {staff ? ", y cuenta como segundo factor de tu cuenta del personal" : ""}.
      </p>
      {passkeys.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">Aún no tienes ninguna llave de acceso.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200" aria-label="Tus llaves de acceso">
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      <div className="mt-4">
        <Button disabled={!hydrated || busy} onClick={() => void start()}>
          <KeyRound className="size-4" aria-hidden />
          {busy ? "Esperando a la llave..." : "Añadir llave de acceso"}
        </Button>
        <JavaScriptNote />
      </div>
    </section>
  );
}

function PasskeyItem({ passkey }: { passkey: SecuritySectionsData["passkeys"][number] }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <p className="font-semibold break-words text-ink">{passkey.name}</p>
        <p className="text-sm text-slate-600">
          {passkey.createdAt ? `Añadida el ${formatDate(passkey.createdAt, "shortDateTime")}` : ""}
          {passkey.lastUsedAt
            ? ` · Último uso: ${formatDate(passkey.lastUsedAt, "shortDateTime")}`
            : " · Sin usar aún"}
          {passkey.backedUp ? " · Sincronizada" : ""}
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-2 sm:shrink-0 sm:flex-nowrap">
        <Form method="post" action={SECURITY_FORMS.passkeys} className="flex items-end gap-2">
          <input type="hidden" name="intent" value="rename" />
          <input type="hidden" name="passkeyId" value={passkey.id} />
          <label className="text-sm">
            <span className="sr-only">Nuevo nombre de {passkey.name}</span>
            <input
              name="name"
              defaultValue={passkey.name}
              required
              maxLength={PASSKEY_NAME_MAX}
              className="h-9 w-40 rounded-lg border border-slate-300 px-2 text-sm"
            />
          </label>
          <Button type="submit" variant="secondary" size="sm">
            Renombrar
          </Button>
        </Form>
        <Form method="post" action={SECURITY_FORMS.passkeys}>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="passkeyId" value={passkey.id} />
          <Button type="submit" variant="secondary" size="sm" className="text-red-700">
            Eliminar
            <span className="sr-only"> {passkey.name}</span>
          </Button>
        </Form>
      </div>
    </li>
  );
}

/** 'Sesiones activas': where the account is signed in, each to end, or all at once. */
export function SessionsSection({ sessions }: { sessions: SecuritySectionsData["sessions"] }) {
  return (
    <section id="sesiones" aria-labelledby="sesiones-title" className={sectionClass}>
      <h2 id="sesiones-title" className="flex items-center gap-2 text-xl font-semibold">
        <Laptop className="size-5 text-brand-600" aria-hidden />
        Sesiones activas
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        Los dispositivos donde tu cuenta tiene la sesión iniciada. Si no reconoces alguno, cierra su
        sesión y cambia tu contraseña.
      </p>
      <ul className="mt-4 divide-y divide-slate-200" aria-label="Tus sesiones activas">
        {sessions.map((session) => (
          <li
            key={session.id}
            className="flex flex-col gap-2 py-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0 text-sm">
              <p className="font-semibold text-ink">
                {session.device}
                {session.current ? (
                  <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                    Esta sesión
                  </span>
                ) : null}
              </p>
              <p className="text-slate-600">
                {session.ipAddress ? `Dirección ${session.ipAddress} · ` : ""}
                Iniciada el {formatDate(session.createdAt, "shortDateTime")} · Última actividad:{" "}
                {formatDate(session.lastSeenAt, "shortDateTime")}
              </p>
            </div>
            <Form method="post" action={SECURITY_FORMS.sessions}>
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="sessionId" value={session.id} />
              <Button type="submit" variant="secondary" size="sm">
                Cerrar sesión
                <span className="sr-only"> en {session.device}</span>
              </Button>
            </Form>
          </li>
        ))}
      </ul>
      <Form method="post" action={SECURITY_FORMS.sessions} className="mt-4">
        <input type="hidden" name="intent" value="revoke-all" />
        {/* Its own classes, not Button's: the long label wraps on a phone instead of overflowing. */}
        <button
          type="submit"
          className="inline-flex min-h-11 items-center gap-2 rounded-lg bg-red-700 px-5 py-2 text-left text-sm font-semibold text-white shadow-sm transition-colors hover:bg-red-800 active:bg-red-900"
        >
          <LogOut className="size-4 shrink-0" aria-hidden />
          Cerrar sesión en todos los dispositivos
        </button>
      </Form>
    </section>
  );
}
