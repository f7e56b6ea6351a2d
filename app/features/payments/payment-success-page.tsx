import { CheckCircle2, Mail, PhoneCall } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { ButtonLink } from "~/ui/button";

/** /pago-exitoso, where a paid checkout lands: what was bought and what happens next. */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  // Rendered as text by React, so a crafted parameter can never become markup.
  const service = params.get("service")?.trim().slice(0, 120) || "servicio";
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center sm:py-24">
      <CheckCircle2 className="mx-auto size-16 text-emerald-600" aria-hidden />
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">¡Pago completado!</h1>
      <p className="mt-4 text-lg text-slate-600">Has contratado: {service}</p>
      <div className="mt-10 rounded-2xl bg-slate-50 p-6 text-left ring-1 ring-slate-200">
        <h2 className="text-lg font-semibold">Próximos pasos</h2>
        <ul className="mt-4 space-y-4 text-sm leading-6">
          <li className="flex gap-3">
            <Mail className="size-5 shrink-0 text-brand-600" aria-hidden />
            Revisa tu email: te hemos enviado la confirmación y el recibo de tu compra.
          </li>
          <li className="flex gap-3">
            <PhoneCall className="size-5 shrink-0 text-brand-600" aria-hidden />
            Un especialista se pondrá en contacto contigo en menos de 24 horas para empezar.
          </li>
        </ul>
      </div>
      <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to="/">Volver al inicio</ButtonLink>
        <ButtonLink to="/#contacto" variant="secondary">
          Contactar
        </ButtonLink>
      </div>
      <p className="mt-6 text-sm text-slate-500">
        ¿Dudas sobre tu compra? Consulta tus compras en{" "}
        <Link to="/mi-cuenta" className="font-medium text-brand-700 underline">
          Mi Cuenta
        </Link>
        .
      </p>
    </section>
  );
}
