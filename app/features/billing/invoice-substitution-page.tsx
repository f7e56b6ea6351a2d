import { FileCheck2, FileText } from "lucide-react";
import { useNavigation } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import type { FormRefusal } from "~/platform/forms/form-answer";
import { Button } from "~/ui/button";
import { RecordPageHead } from "~/ui/signed-in/page-head";
import { formatDate } from "~/platform/dates";
import { cardClasses, Field, ValidatedForm } from "~/ui/form";
import { BILLING_FIELDS, BILLING_LIMITS } from "./billing-data";
import { substitutionMessages, substitutionSchema } from "./invoice-substitution-form";
import type { substitutionPage } from "./invoice-substitution.server";

type Substitution = Awaited<ReturnType<typeof substitutionPage>>;

/**
 * Mi Cuenta's request of a complete invoice in place of a simplified one (decision 070): the
 * invoice, then the form with the buyer's fiscal data, or why it cannot be replaced and, once it
 * was, the invoice that replaced it. `purchasesPath` is Mi Cuenta's Compras tab.
 */
export function SubstitutionPage({
  page,
  answer,
  purchasesPath,
}: {
  page: Substitution;
  answer: FormRefusal | undefined;
  purchasesPath: string;
}) {
  const { invoice, substitute, refusal } = page;
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <RecordPageHead
        back={{ to: purchasesPath, label: "Volver a Compras" }}
        title="Pedir factura completa"
      />
      <div className={`${cardClasses} mt-6 space-y-4`}>
        <p>
          Factura simplificada <strong>{invoice.number}</strong> · {invoice.description} ·{" "}
          {formatPrice(invoice.totalAmount, { cents: "always" })} · emitida el{" "}
          {formatDate(invoice.issuedAt, "date")}
        </p>
        {substitute ? (
          <p role="status" className="text-slate-700">
            Ya se sustituyó por la{" "}
            <a
              href={`/mi-cuenta/facturas/${substitute.id}`}
              download
              className="inline-flex items-center gap-1 font-semibold text-brand-700 underline"
            >
              <FileText className="size-4" aria-hidden />
              factura {substitute.number}
            </a>
            .
          </p>
        ) : refusal ? (
          <p role="status" className="text-slate-700">
            <strong>{substitutionMessages[refusal].title}.</strong>{" "}
            {substitutionMessages[refusal].description}
          </p>
        ) : (
          <SubstitutionForm page={page} answer={answer} />
        )}
      </div>
    </section>
  );
}

function SubstitutionForm({
  page: { profileBilling },
  answer,
}: {
  page: Substitution;
  answer: FormRefusal | undefined;
}) {
  const sending = useNavigation().state === "submitting";
  const typed = answer?.values ?? {};
  return (
    <>
      <p className="text-slate-700">
        Si necesitas la factura a nombre de tu empresa o para deducir el IVA, te emitimos una
        factura completa con tus datos fiscales, la misma operación y los mismos importes. Sustituye
        a la factura simplificada, que deja de servir como justificante, y se comunica a la Agencia
        Tributaria como las demás.
      </p>
      <ValidatedForm
        method="post"
        schema={substitutionSchema}
        messages={substitutionMessages}
        answer={answer}
        aria-label="Datos de la factura completa"
        className="grid gap-3"
      >
        <Field
          name={BILLING_FIELDS.name}
          label="Nombre o razón social"
          required
          maxLength={BILLING_LIMITS.name}
          autoComplete="organization"
          defaultValue={typed[BILLING_FIELDS.name] ?? profileBilling.name}
        />
        <Field
          name={BILLING_FIELDS.taxId}
          label="NIF, NIE o CIF"
          required
          maxLength={BILLING_LIMITS.taxId}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          defaultValue={typed[BILLING_FIELDS.taxId] ?? profileBilling.taxId}
        />
        <Field
          name={BILLING_FIELDS.address}
          label="Domicilio fiscal"
          required
          maxLength={BILLING_LIMITS.address}
          autoComplete="street-address"
          placeholder="Calle y número, código postal, localidad"
          defaultValue={typed[BILLING_FIELDS.address] ?? profileBilling.address}
        />
        <div>
          <Button type="submit" disabled={sending}>
            <FileCheck2 className="size-4" aria-hidden />
            {sending ? "Emitiendo..." : "Emitir factura completa"}
          </Button>
        </div>
      </ValidatedForm>
    </>
  );
}
