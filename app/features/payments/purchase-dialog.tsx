import { lazy, Suspense, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { usePageViewer } from "~/features/identity/page-viewer";
import { withReturnPath } from "~/features/identity/return-path";
import { formatPrice, type Service } from "~/features/catalogue/services";
import { buttonClasses, type ButtonStyle } from "~/ui/button";
import { useHydrated } from "~/ui/use-hydrated";

/** Its own chunk, fetched when a buy button is first reached for, not with the page. */
const loadDialog = () => import("./purchase-dialog-body");
const PurchaseDialog = lazy(loadDialog);

import { BUY_PARAM, purchasePagePath, returnPathFor } from "./purchase-return-path";

/**
 * The buy button. Without JavaScript it is a plain link: to sign-up (which brings the visitor
 * back to the service), or for a signed-in customer to the purchase page (/comprar/<slug>); once
 * hydrated it opens the purchase dialog, at once when the page's address asks for this service
 * (`?comprar=<slug>`, after signing in).
 */
export function BuyButton({
  service,
  label = "Comprar ahora",
  className = "",
  ...style
}: { service: Service; label?: string; className?: string } & ButtonStyle) {
  const [chosen, setChosen] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const asked = hydrated && params.get(BUY_PARAM) === service.slug;
  const open = chosen || (asked && !dismissed);
  const close = () => {
    setChosen(false);
    setDismissed(true);
  };
  const returnPath = returnPathFor(pathname, service.slug);
  const viewer = usePageViewer();
  return (
    <>
      <a
        href={viewer ? purchasePagePath(service) : withReturnPath("/registro", returnPath)}
        role="button"
        className={`${buttonClasses(style)} ${className}`}
        // What a light page's script needs to open its dialog (purchase-dialog-controller.ts).
        data-buy={service.slug}
        data-service-name={service.name}
        data-service-price={formatPrice(service.priceCents)}
        // A pointer or the keyboard on its way: the dialog's code loads before the click.
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={(event) => {
          event.preventDefault();
          setChosen(true);
        }}
      >
        {label}
      </a>
      {open ? (
        <Suspense fallback={null}>
          <PurchaseDialog service={service} returnPath={returnPath} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
