import { CircleCheck, Mail, RotateCcw } from "lucide-react";
import { useId, useLayoutEffect, useRef, useState, type MouseEvent } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { serviceCodeLabel } from "~/features/catalogue/services";
import { Button, buttonClasses } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import { InquiryStateBadge, inquiryLinkSelector } from "./tabs/inquiries-table";

export type DialogInquiry = {
  id: string;
  name: string;
  email: string;
  service: string;
  message: string;
  createdAt: Date | string;
  handledAt: Date | string | null;
};

/** Closes the dialog and puts the focus back on its row's 'Ver', when the row is on the page. */
function closeAndReturnFocus(element: HTMLDialogElement, inquiryId: string) {
  if (element.open) element.close();
  document.querySelector<HTMLElement>(inquiryLinkSelector(inquiryId))?.focus();
}

/** 'Responder': a mail to the sender, its subject naming the service they asked about. */
export function replyHref(inquiry: Pick<DialogInquiry, "email" | "service">): string {
  const subject = `Re: tu consulta sobre ${serviceCodeLabel(inquiry.service)}`;
  return `mailto:${inquiry.email}?subject=${encodeURIComponent(subject)}`;
}

/**
 * An enquiry's detail (spec: the Consultas dialog), opened by the address (`consulta=<id>`):
 * the server renders it open in the page, so it works without JavaScript; once hydrated it is a
 * modal `<dialog>` (focus kept inside, the page behind inert). 'Cerrar', Escape and a click on
 * the backdrop go back to the list's address (`closeHref`), and the focus back to the row's 'Ver'.
 */
export function InquiryDialog({
  inquiry,
  closeHref,
}: {
  inquiry: DialogInquiry;
  closeHref: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState(false);
  const dismissedRef = useRef(false);
  const pressedOnBackdrop = useRef(false);
  const handled = Boolean(inquiry.handledAt);
  const changing = useNavigation().formData?.get("inquiryId") === inquiry.id;

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // Open in the page as the server sent it: show it again as a modal.
    if (!element.matches(":modal")) {
      element.close();
      element.showModal();
    }
    return () => closeAndReturnFocus(element, inquiry.id);
  }, [inquiry.id]);

  const dismiss = () => {
    if (dismissedRef.current) return;
    dismissedRef.current = true;
    if (dialog.current) closeAndReturnFocus(dialog.current, inquiry.id);
    setDismissed(true);
    void navigate(closeHref, { preventScrollReset: true });
  };

  if (dismissed) return null;

  const facts = [
    { label: "Cliente", value: inquiry.name },
    { label: "Email", value: inquiry.email },
    { label: "Servicio", value: serviceCodeLabel(inquiry.service) },
    { label: "Fecha", value: formatDate(inquiry.createdAt, "longDateTime") },
  ];

  return (
    <dialog
      ref={dialog}
      open
      aria-labelledby={titleId}
      data-inquiry={inquiry.id}
      onCancel={(event) => {
        // Escape: leave through the list's address, so the back button and the URL agree.
        event.preventDefault();
        dismiss();
      }}
      onClose={() => {
        // Closed by the browser without a cancel event (a second Escape, for one).
        if (!dialog.current?.open) dismiss();
      }}
      onMouseDown={(event: MouseEvent<HTMLDialogElement>) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself (its box has no padding).
        if (pressedOnBackdrop.current && event.target === event.currentTarget) dismiss();
      }}
      className="fixed inset-0 z-40 m-auto h-fit max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-xl overflow-y-auto rounded-2xl bg-white p-0 text-ink shadow-2xl ring-1 ring-slate-200 backdrop:bg-slate-900/50 [&:not(:modal)]:shadow-[0_0_0_100vmax_rgb(15_23_42/0.5)]"
    >
      <div className="p-5 sm:p-6">
        <p className="text-sm font-semibold text-brand-700">Consulta</p>
        <h2 id={titleId} className="mt-1 text-xl font-bold tracking-tight break-words">
          {inquiry.name}
        </h2>
        <dl className="mt-4 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          {facts.map((fact) => (
            <div key={fact.label} className="contents">
              <dt className="text-slate-600">{fact.label}</dt>
              <dd className="font-medium wrap-anywhere">{fact.value}</dd>
            </div>
          ))}
          <div className="contents">
            <dt className="text-slate-600">Estado</dt>
            <dd>
              {/* Announced when staff change it: the page's toast sits behind the modal. */}
              <span role="status">
                <InquiryStateBadge handled={handled} />
              </span>
            </dd>
          </div>
        </dl>
        <h3 className="mt-5 text-sm font-semibold text-slate-600">Mensaje</h3>
        <p className="mt-1 max-h-72 overflow-y-auto rounded-lg bg-slate-50 p-3 text-sm leading-6 whitespace-pre-line wrap-anywhere ring-1 ring-slate-200">
          {inquiry.message}
        </p>
        <div className="mt-6 flex flex-wrap gap-2">
          <a href={replyHref(inquiry)} className={buttonClasses({ size: "sm" })}>
            <Mail className="size-4" aria-hidden />
            Responder
          </a>
          <Form method="post" preventScrollReset>
            <input
              type="hidden"
              name="intent"
              value={handled ? "inquiry-pending" : "inquiry-handled"}
            />
            <input type="hidden" name="inquiryId" value={inquiry.id} />
            <Button type="submit" variant="secondary" size="sm" disabled={changing}>
              {handled ? (
                <RotateCcw className="size-4" aria-hidden />
              ) : (
                <CircleCheck className="size-4" aria-hidden />
              )}
              {handled ? "Marcar como pendiente" : "Marcar como atendida"}
            </Button>
          </Form>
          <Link
            to={closeHref}
            preventScrollReset
            onClick={(event) => {
              event.preventDefault();
              dismiss();
            }}
            className={`${buttonClasses({ variant: "ghost", size: "sm" })} sm:ml-auto`}
          >
            Cerrar
          </Link>
        </div>
      </div>
    </dialog>
  );
}
