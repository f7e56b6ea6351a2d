import { CheckCircle2, Info, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import {
  contactServiceCodes,
  formatPrice,
  serviceCodeLabel,
  type Service,
} from "~/features/catalogue/services";
import { Button } from "~/ui/button";
import { showToast } from "~/ui/toast";
import type { ContactActionResult } from "./contact-action.server";
import { contactErrorText, contactToasts } from "./contact-messages";
import { validateContact, type ContactField } from "./contact-schema";
import {
  PENDING_PURCHASE_EVENT,
  pendingPurchaseMessage,
  takePendingPurchase,
} from "./pending-purchase";

const fieldClasses =
  "mt-1 block w-full rounded-lg border-0 px-3 py-2.5 text-ink shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset aria-[invalid=true]:ring-red-500";

function RequiredMark() {
  return (
    <span className="text-red-600" aria-hidden>
      {" "}
      *
    </span>
  );
}

function showResultToast(result: ContactActionResult) {
  if (result.status === "sent") void showToast("success", contactToasts.sent);
  else if (result.status === "rate-limited") void showToast("error", contactToasts.rateLimited);
  else if (result.status === "invalid") {
    const first = result.errors[0];
    if (first) void showToast("error", contactErrorText(first.code, result.values));
  } else void showToast("error", contactToasts.failed);
}

/**
 * The enquiry form. With JavaScript it validates in the spec's order, shows toasts and stays on
 * the page; without it, it posts to /contacto, which answers with the same rules.
 */
export function ContactForm({ serverResult }: { serverResult?: ContactActionResult }) {
  const fetcher = useFetcher<ContactActionResult>();
  const form = useRef<HTMLFormElement>(null);
  const [service, setService] = useState(
    serverResult?.status === "invalid" ? serverResult.values.service : "",
  );
  const [message, setMessage] = useState(
    serverResult?.status === "invalid" ? serverResult.values.message : "",
  );
  const [selected, setSelected] = useState<Service | undefined>();
  const busy = fetcher.state !== "idle";

  // A service chosen with 'Consultar primero' pre-fills the form once: on load, or at once when
  // it is chosen on this very page.
  useEffect(() => {
    const applyPendingPurchase = () => {
      const pending = takePendingPurchase(window.localStorage);
      if (!pending) return;
      setSelected(pending);
      setService(pending.code);
      setMessage(pendingPurchaseMessage(pending));
      void showToast("info", contactToasts.serviceSelected(pending.name));
    };
    applyPendingPurchase();
    window.addEventListener(PENDING_PURCHASE_EVENT, applyPendingPurchase);
    return () => window.removeEventListener(PENDING_PURCHASE_EVENT, applyPendingPurchase);
  }, []);

  // A new answer of the server: after a success the form starts over (state adjusted while
  // rendering; the toast and the reset of the uncontrolled fields happen in the effect below).
  const [answered, setAnswered] = useState(fetcher.data);
  if (fetcher.data !== answered) {
    setAnswered(fetcher.data);
    if (fetcher.data?.status === "sent") {
      setService("");
      setMessage("");
      setSelected(undefined);
    }
  }
  useEffect(() => {
    if (!answered) return;
    showResultToast(answered);
    if (answered.status === "sent") form.current?.reset();
  }, [answered]);

  const invalidFields = new Set<ContactField>(
    serverResult?.status === "invalid" ? serverResult.errors.map((error) => error.field) : [],
  );
  const offeredCodes: string[] = [...contactServiceCodes];
  if (service && !offeredCodes.includes(service)) offeredCodes.push(service);

  return (
    <fetcher.Form
      ref={form}
      method="post"
      action="/contacto"
      noValidate
      className="grid gap-5 sm:grid-cols-2"
      aria-label="Formulario de contacto"
      onSubmit={(event) => {
        const values = Object.fromEntries(new FormData(event.currentTarget));
        const validation = validateContact(values);
        if (!validation.success) {
          event.preventDefault();
          void showToast("error", contactErrorText(validation.errors[0]!.code, { message }));
        }
      }}
    >
      {serverResult ? <ServerResultNotice result={serverResult} /> : null}
      {selected ? (
        <div className="flex gap-3 rounded-lg bg-brand-50 p-4 text-sm text-brand-900 ring-1 ring-brand-200 sm:col-span-2">
          <Info className="size-5 shrink-0 text-brand-600" aria-hidden />
          <p>
            <strong className="block">Servicio Seleccionado</strong>
            {selected.name} · {formatPrice(selected.priceCents)}
          </p>
        </div>
      ) : null}
      <label className="block text-sm font-medium text-ink">
        Nombre completo
        <RequiredMark />
        <input
          name="name"
          autoComplete="name"
          className={fieldClasses}
          required
          maxLength={100}
          aria-invalid={invalidFields.has("name") || undefined}
          defaultValue={serverResult?.status === "invalid" ? serverResult.values.name : undefined}
        />
      </label>
      <label className="block text-sm font-medium text-ink">
        Email
        <RequiredMark />
        <input
          name="email"
          type="email"
          autoComplete="email"
          className={fieldClasses}
          required
          maxLength={255}
          aria-invalid={invalidFields.has("email") || undefined}
          defaultValue={serverResult?.status === "invalid" ? serverResult.values.email : undefined}
        />
      </label>
      <label className="block text-sm font-medium text-ink sm:col-span-2">
        Servicio de interés
        <RequiredMark />
        <select
          name="service"
          className={fieldClasses}
          required
          value={service}
          onChange={(event) => setService(event.target.value)}
          aria-invalid={invalidFields.has("service") || undefined}
        >
          <option value="" disabled>
            Selecciona un servicio
          </option>
          {offeredCodes.map((code) => (
            <option key={code} value={code}>
              {serviceCodeLabel(code)}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-ink sm:col-span-2">
        Mensaje
        <RequiredMark />
        <textarea
          name="message"
          rows={5}
          className={fieldClasses}
          required
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          aria-invalid={invalidFields.has("message") || undefined}
        />
      </label>
      <div className="hidden" aria-hidden="true">
        <label>
          No rellenes este campo
          <input name="website" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          Los campos marcados con * son obligatorios. Usamos tus datos solo para responderte.
        </p>
        <Button type="submit" size="lg" disabled={busy} className="w-full sm:w-auto">
          {busy ? (
            <>
              <Loader2 className="size-5 animate-spin" aria-hidden />
              Enviando consulta...
            </>
          ) : (
            "Enviar consulta"
          )}
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** Without JavaScript the result is shown in the page instead of a toast. */
function ServerResultNotice({ result }: { result: ContactActionResult }) {
  if (result.status === "sent") {
    return (
      <div
        role="status"
        className="flex gap-3 rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200 sm:col-span-2"
      >
        <CheckCircle2 className="size-5 shrink-0 text-emerald-600" aria-hidden />
        <p>
          <strong className="block">{contactToasts.sent.title}</strong>
          {contactToasts.sent.description}
        </p>
      </div>
    );
  }
  const messages =
    result.status === "invalid"
      ? result.errors.map((error) => contactErrorText(error.code, result.values))
      : [result.status === "rate-limited" ? contactToasts.rateLimited : contactToasts.failed];
  return (
    <div
      role="alert"
      className="rounded-lg bg-red-50 p-4 text-sm text-red-900 ring-1 ring-red-200 sm:col-span-2"
    >
      <ul className="space-y-1">
        {messages.map((text) => (
          <li key={text.title}>
            <strong>{text.title}:</strong> {text.description}
          </li>
        ))}
      </ul>
    </div>
  );
}
