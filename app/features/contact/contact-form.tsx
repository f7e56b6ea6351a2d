import { Info, Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { track } from "~/features/analytics/track";
import { useFetcher } from "react-router";
import { contactServiceCodes, serviceCodeLabel, type Service } from "~/features/catalogue/services";
import { usePageViewer } from "~/features/identity/page-viewer";
import { HumanCheck } from "~/platform/human-check/human-check";
import { Button } from "~/ui/button";
import { SubmissionKeyField } from "~/ui/submission-key-field";
import { Field, Select, TextArea, ValidatedForm, type FormReply } from "~/ui/form";
import { showToast } from "~/ui/toast";
import type { ContactAnswer } from "./contact-action.server";
import { contactMessages, contactSubmitLabels, contactToasts } from "./contact-messages";
import { contactSchema } from "./contact-schema";
import {
  PENDING_PURCHASE_EVENT,
  pendingPurchaseMessage,
  selectedServiceText,
  takePendingPurchase,
} from "~/features/payments/pending-purchase";

/**
 * The enquiry form. It validates in the spec's order, shows toasts and stays on the page. It
 * carries the proof-of-work check (when `humanCheck` is on), loaded when the visitor first
 * touches the form, so pages that show it keep their script budget; without JavaScript it says
 * the check needs it. The server answers a post to /contacto with the same rules.
 */
export function ContactForm({
  serverResult,
  humanCheck,
}: {
  serverResult?: ContactAnswer;
  humanCheck: boolean;
}) {
  const fetcher = useFetcher<ContactAnswer>();
  // A signed-in customer's name and address; never in the cached page anonymous visitors get.
  const viewer = usePageViewer();
  const echoed = serverResult && "values" in serverResult ? serverResult.values : undefined;
  const [service, setService] = useState(echoed?.service ?? "");
  const [message, setMessage] = useState(echoed?.message ?? "");
  const [selected, setSelected] = useState<Service | undefined>();
  const busy = fetcher.state !== "idle";
  const [humanCheckReady, setHumanCheckReady] = useState(!humanCheck);
  const submitState = busy ? "busy" : humanCheckReady ? "idle" : "loading";

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

  // After a success the form starts over.
  const startOver = (reply: FormReply, form: HTMLFormElement) => {
    if (reply.tone !== "success") return;
    track("enquiry");
    form.reset();
    setService("");
    setMessage("");
    setSelected(undefined);
  };

  const offeredCodes: string[] = [...contactServiceCodes];
  if (service && !offeredCodes.includes(service)) offeredCodes.push(service);

  return (
    <ValidatedForm
      fetcher={fetcher}
      action="/contacto"
      schema={contactSchema}
      messages={contactMessages}
      answer={fetcher.data ?? serverResult}
      onReply={startOver}
      // The spec's contact errors are toasts (section 5); each field's stays under it.
      toasts
      blockedBy={humanCheckReady ? undefined : contactToasts.humanCheckNotReady}
      className="grid gap-5 sm:grid-cols-2"
      aria-label="Formulario de contacto"
      data-contact-form
    >
      {/* Always in the page, so a light page's script can fill and show it too. */}
      <div
        data-selected-service
        hidden={!selected}
        className="flex gap-3 rounded-lg bg-brand-50 p-4 text-sm text-brand-900 ring-1 ring-brand-200 sm:col-span-2"
      >
        <Info className="size-5 shrink-0 text-brand-600" aria-hidden />
        <p>
          <strong className="block">Servicio Seleccionado</strong>
          <span data-slot="selected-service">
            {selected ? selectedServiceText(selected) : null}
          </span>
        </p>
      </div>
      <Field
        label="Nombre completo"
        markRequired
        name="name"
        autoComplete="name"
        required
        maxLength={100}
        defaultValue={echoed?.name ?? viewer?.fullName ?? undefined}
      />
      <Field
        label="Email"
        markRequired
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={255}
        defaultValue={echoed?.email ?? viewer?.email}
      />
      <Select
        label="Servicio de interés"
        markRequired
        frameClassName="sm:col-span-2"
        name="service"
        required
        value={service}
        onChange={(event) => setService(event.target.value)}
      >
        <option value="" disabled>
          Selecciona un servicio
        </option>
        {offeredCodes.map((code) => (
          <option key={code} value={code}>
            {serviceCodeLabel(code)}
          </option>
        ))}
      </Select>
      <TextArea
        label="Mensaje"
        markRequired
        frameClassName="sm:col-span-2"
        name="message"
        rows={5}
        required
        value={message}
        onChange={(event) => setMessage(event.target.value)}
      />
      <SubmissionKeyField kept={echoed?.submissionKey || undefined} />
      <div className="hidden" aria-hidden="true">
        <label>
          No rellenes este campo
          <input name="website" tabIndex={-1} autoComplete="off" />
        </label>
      </div>
      {humanCheck ? (
        // Room for the check's status line, so the button does not move when it appears.
        <div className="min-h-5 sm:col-span-2">
          <HumanCheck
            onReadyChange={setHumanCheckReady}
            loadOn="form-interaction"
            renewOn={fetcher.data}
          />
        </div>
      ) : null}
      <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          Los campos marcados con * son obligatorios. Usamos tus datos solo para responderte.
        </p>
        <Button
          type="submit"
          size="lg"
          disabled={submitState !== "idle"}
          data-state={submitState}
          data-submit
          className="group w-full sm:w-auto"
        >
          <Loader2
            className="hidden size-5 animate-spin group-data-[state=busy]:block"
            aria-hidden
          />
          <span data-label>{contactSubmitLabels[submitState]}</span>
        </Button>
      </div>
    </ValidatedForm>
  );
}
