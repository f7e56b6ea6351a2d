import { contactServiceCodes, serviceCodeLabel } from "~/features/catalogue/services";

const fieldClasses =
  "mt-1 block w-full rounded-lg border-0 px-3 py-2.5 text-ink shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset";

function RequiredMark() {
  return (
    <span className="text-red-600" aria-hidden>
      {" "}
      *
    </span>
  );
}

/** The enquiry form (fields only; submission is wired by the contact feature). */
export function ContactForm() {
  return (
    <form method="post" className="grid gap-5 sm:grid-cols-2" noValidate>
      <label className="block text-sm font-medium text-ink">
        Nombre completo
        <RequiredMark />
        <input name="name" autoComplete="name" className={fieldClasses} required />
      </label>
      <label className="block text-sm font-medium text-ink">
        Email
        <RequiredMark />
        <input name="email" type="email" autoComplete="email" className={fieldClasses} required />
      </label>
      <label className="block text-sm font-medium text-ink sm:col-span-2">
        Servicio de interés
        <RequiredMark />
        <select name="service" className={fieldClasses} required defaultValue="">
          <option value="" disabled>
            Selecciona un servicio
          </option>
          {contactServiceCodes.map((code) => (
            <option key={code} value={code}>
              {serviceCodeLabel(code)}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-ink sm:col-span-2">
        Mensaje
        <RequiredMark />
        <textarea name="message" rows={5} className={fieldClasses} required />
      </label>
    </form>
  );
}
