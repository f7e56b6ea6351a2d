import { CreditCard, Loader2, MailWarning, MessageCircle } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import { usePageViewer } from "~/features/identity/page-viewer";
import { track } from "~/features/analytics/track";
import { withReturnPath } from "~/features/identity/return-path";
import { formatPrice, type Service } from "~/features/catalogue/services";
import { PENDING_PURCHASE_EVENT, savePendingPurchase } from "~/features/payments/pending-purchase";
import { Button, ButtonLink } from "~/ui/button";
import { CloseButton } from "~/ui/close-button";
import { DialogIcon, dialogClasses, SignedOutContent } from "./purchase-dialog-parts";
import { ValidatedForm } from "~/ui/form";
import { CheckoutFields, PriceBreakdown } from "./checkout-fields";
import { checkoutSchema } from "./checkout-form";
import type { CheckoutResult } from "./checkout.server";
import { paymentMessages } from "./payment-messages";

/** Spec: the consult flow scrolls 100 px above the contact section, after 100-300 ms. */
const CONSULT_SCROLL_DELAY_MS = 200;
const CONSULT_SCROLL_OFFSET_PX = 100;

/**
 * The purchase dialog, loaded when a buy button is first reached for (its own chunk: public
 * pages do not download it with their first visit).
 */
export default function PurchaseDialog({
  service,
  returnPath,
  onClose,
}: {
  service: Service;
  returnPath: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const viewer = usePageViewer();
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  useEffect(() => track("purchase_dialog"), []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
      className={dialogClasses}
    >
      <div className="relative p-6">
        <CloseButton onClick={onClose} className="top-3 right-3" />
        {!viewer ? (
          <SignedOut service={service} returnPath={returnPath} titleId={titleId} />
        ) : !viewer.emailVerified ? (
          <Unverified titleId={titleId} />
        ) : (
          <ReadyToPay service={service} titleId={titleId} onClose={onClose} />
        )}
      </div>
    </dialog>
  );
}

function SignedOut({
  service,
  returnPath,
  titleId,
}: {
  service: Service;
  returnPath: string;
  titleId: string;
}) {
  return (
    <SignedOutContent
      titleId={titleId}
      serviceName={service.name}
      servicePrice={formatPrice(service.priceCents)}
      registerHref={withReturnPath("/registro", returnPath)}
      loginHref={withReturnPath("/login-cliente", returnPath)}
    />
  );
}

function Unverified({ titleId }: { titleId: string }) {
  return (
    <>
      <DialogIcon>
        <MailWarning className="size-6" aria-hidden />
      </DialogIcon>
      <h2 id={titleId} className="mt-4 text-xl font-bold">
        {paymentMessages.emailNotVerified.title}
      </h2>
      <p className="mt-2 text-sm leading-6 text-slate-600">
        {paymentMessages.emailNotVerified.description}
      </p>
      <ButtonLink to="/verificar-email" className="mt-6 w-full">
        Verificar email
      </ButtonLink>
    </>
  );
}

function ReadyToPay({
  service,
  titleId,
  onClose,
}: {
  service: Service;
  titleId: string;
  onClose: () => void;
}) {
  const checkout = useFetcher<CheckoutResult>();
  const navigate = useNavigate();
  const [redirecting, setRedirecting] = useState(false);
  const paying = checkout.state !== "idle" || redirecting;
  const result = checkout.data;

  // A new answer of the server: the browser goes to the payment page (the form shows a refusal).
  const [handled, setHandled] = useState(result);
  if (result !== handled) {
    setHandled(result);
    if (result && "url" in result) setRedirecting(true);
  }
  useEffect(() => {
    if (handled && "url" in handled) window.location.assign(handled.url);
  }, [handled]);

  const consultFirst = () => {
    savePendingPurchase(window.localStorage, service);
    onClose();
    const section = document.getElementById("contacto");
    if (!section) {
      navigate("/#contacto");
      return;
    }
    window.dispatchEvent(new Event(PENDING_PURCHASE_EVENT));
    window.setTimeout(() => {
      const top = section.getBoundingClientRect().top + window.scrollY - CONSULT_SCROLL_OFFSET_PX;
      window.scrollTo({ top, behavior: "smooth" });
    }, CONSULT_SCROLL_DELAY_MS);
  };

  const error = result && "errors" in result ? result.errors[0]?.code : undefined;
  return (
    <>
      <DialogIcon>
        <CreditCard className="size-6" aria-hidden />
      </DialogIcon>
      <h2 id={titleId} className="mt-4 text-xl font-bold">
        {service.name}
      </h2>
      <p className="mt-1 text-3xl font-bold text-ink">{formatPrice(service.priceCents)}</p>
      <p className="text-sm text-slate-500">Pago único • Sin cuotas</p>
      <PriceBreakdown service={service} />
      {error === "signInRequired" ? (
        <p role="alert" className="mt-4 text-sm text-red-800">
          {paymentMessages.signInRequired.title}.{" "}
          <Link to="/registro" className="font-semibold underline">
            Registrarse
          </Link>
        </p>
      ) : null}
      <ValidatedForm
        fetcher={checkout}
        action="/checkout"
        schema={checkoutSchema(service.priceCents)}
        messages={paymentMessages}
        answer={result}
        // The dialog has no room for the form's box: what is about the whole form is a toast.
        toasts
        className="mt-4 grid gap-2"
      >
        <CheckoutFields service={service} />
        <Button type="submit" size="lg" disabled={paying}>
          {paying ? (
            <Loader2 className="size-5 animate-spin" aria-label="Procesando" />
          ) : (
            <CreditCard className="size-5" aria-hidden />
          )}
          Pagar ahora
        </Button>
        <Button variant="secondary" onClick={consultFirst} disabled={paying}>
          <MessageCircle className="size-5" aria-hidden />
          Consultar primero
        </Button>
      </ValidatedForm>
      <p className="mt-4 text-center text-xs text-slate-500">100% seguro • Reembolso garantizado</p>
    </>
  );
}
