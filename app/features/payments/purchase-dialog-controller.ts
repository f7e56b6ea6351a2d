import { track } from "~/features/analytics/track";
import { withReturnPath } from "~/features/identity/return-path";
import { BUY_PARAM, returnPathFor } from "./purchase-return-path";

/**
 * A light page's buy buttons (decision 038). Without JavaScript each is a link to sign-up that
 * brings the visitor back to the service; with it, it opens the page's one purchase dialog
 * (VisitorPurchaseDialog) filled with its service, at once when the address asks for one
 * (`?comprar=<slug>`). Light pages are only served to visitors who are not signed in; a
 * signed-in customer's page is React's, with its payment form.
 */
export function controlPurchaseDialog(doc: Document): void {
  const dialog = doc.querySelector<HTMLDialogElement>("dialog[data-purchase-dialog]");
  if (!dialog) return;
  const { pathname, search } = doc.location;

  const open = (button: HTMLElement) => {
    const slug = button.dataset.buy!;
    const slot = (name: string) => dialog.querySelector(`[data-slot=${name}]`)!;
    slot("service-name").textContent = button.dataset.serviceName ?? "";
    slot("service-price").textContent = button.dataset.servicePrice ?? "";
    const returnPath = returnPathFor(pathname, slug);
    dialog
      .querySelector("[data-link=register]")!
      .setAttribute("href", withReturnPath("/registro", returnPath));
    dialog
      .querySelector("[data-link=login]")!
      .setAttribute("href", withReturnPath("/login-cliente", returnPath));
    dialog.showModal();
    track("purchase_dialog");
  };

  doc.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-buy]") : null;
    if (!(button instanceof HTMLElement)) return;
    event.preventDefault();
    open(button);
  });
  dialog.addEventListener("click", (event) => {
    const target = event.target as Element;
    // A click on the backdrop lands on the dialog element itself.
    if (target === dialog || target.closest("[data-close]")) dialog.close();
  });

  const asked = new URLSearchParams(search).get(BUY_PARAM);
  const askedButton = asked
    ? [...doc.querySelectorAll<HTMLElement>("[data-buy]")].find((b) => b.dataset.buy === asked)
    : undefined;
  if (askedButton) open(askedButton);
}
