import { Lock } from "lucide-react";
import type { ReactNode } from "react";
import { VAT_INCLUDED } from "~/features/catalogue/vat";
import { ButtonLink } from "~/ui/button";
import { CloseButton } from "~/ui/close-button";

export function DialogIcon({ children }: { children: ReactNode }) {
  return (
    <div className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
      {children}
    </div>
  );
}

export const dialogClasses =
  "m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 shadow-2xl";

/** What a visitor who is not signed in is told: an account first, then back to this service. */
export function SignedOutContent({
  titleId,
  serviceName,
  servicePrice,
  registerHref,
  loginHref,
}: {
  titleId: string;
  serviceName: ReactNode;
  servicePrice: ReactNode;
  registerHref: string;
  loginHref: string;
}) {
  return (
    <>
      <DialogIcon>
        <Lock className="size-6" aria-hidden />
      </DialogIcon>
      <h2 id={titleId} className="mt-4 text-xl font-bold">
        Registro Requerido
      </h2>
      <p className="mt-2 text-sm leading-6 text-slate-600">
        Para contratar <strong className="text-ink">{serviceName}</strong> ({servicePrice},{" "}
        {VAT_INCLUDED}) necesitas una cuenta. Crea una en un minuto o inicia sesión si ya la tienes.
      </p>
      <div className="mt-6 grid gap-2 sm:grid-cols-2">
        <ButtonLink to={registerHref} data-link="register">
          Crear cuenta
        </ButtonLink>
        <ButtonLink to={loginHref} variant="secondary" data-link="login">
          Ya tengo cuenta
        </ButtonLink>
      </div>
    </>
  );
}

/**
 * A light page's purchase dialog (its visitors are not signed in): one per page, filled by its
 * script with the service of the buy button chosen (purchase-dialog-controller.ts).
 */
export function VisitorPurchaseDialog() {
  return (
    <dialog data-purchase-dialog aria-labelledby="purchase-dialog-title" className={dialogClasses}>
      <div className="relative p-6">
        <CloseButton data-close className="top-3 right-3" />
        <SignedOutContent
          titleId="purchase-dialog-title"
          serviceName={<span data-slot="service-name" />}
          servicePrice={<span data-slot="service-price" />}
          registerHref="/registro"
          loginHref="/login-cliente"
        />
      </div>
    </dialog>
  );
}
