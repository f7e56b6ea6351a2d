import { Lock, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { formatPrice, type Service } from "~/features/catalogue/services";
import { buttonClasses, type ButtonStyle } from "~/ui/button";
import { ButtonLink } from "~/ui/button";

/**
 * The buy button. Without JavaScript it is a plain link to sign-up; once hydrated it opens
 * the purchase dialog.
 */
export function BuyButton({
  service,
  label = "Comprar ahora",
  className = "",
  ...style
}: { service: Service; label?: string; className?: string } & ButtonStyle) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <a
        href="/registro"
        role="button"
        className={`${buttonClasses(style)} ${className}`}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </a>
      {open ? <PurchaseDialog service={service} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function PurchaseDialog({ service, onClose }: { service: Service; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 shadow-2xl"
    >
      <div className="relative p-6">
        <button
          type="button"
          onClick={onClose}
          aria-label="Cerrar"
          className="absolute top-3 right-3 inline-flex size-9 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-ink"
        >
          <X className="size-5" aria-hidden />
        </button>
        <div className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <Lock className="size-6" aria-hidden />
        </div>
        <h2 id={titleId} className="mt-4 text-xl font-bold">
          Registro Requerido
        </h2>
        <p className="mt-2 text-sm leading-6 text-slate-600">
          Para contratar <strong className="text-ink">{service.name}</strong> (
          {formatPrice(service.priceCents)}) necesitas una cuenta. Crea una en un minuto o inicia
          sesión si ya la tienes.
        </p>
        <div className="mt-6 grid gap-2 sm:grid-cols-2">
          <ButtonLink to="/registro">Crear cuenta</ButtonLink>
          <ButtonLink to="/login-cliente" variant="secondary">
            Ya tengo cuenta
          </ButtonLink>
        </div>
      </div>
    </dialog>
  );
}
