import { Undo2 } from "lucide-react";
import { useNavigation } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import type { FormRefusal } from "~/platform/forms/form-answer";
import { Button } from "~/ui/button";
import { RecordPageHead } from "~/ui/signed-in/page-head";
import { formatDate } from "~/platform/dates";
import { cardClasses, Checkbox, ValidatedForm } from "~/ui/form";
import { afterSaleMessages, withdrawalSchema } from "./after-sale-rules";
import { WITHDRAWAL_DAYS } from "./after-sale-status";
import type { withdrawalPage } from "./after-sale.server";

type Withdrawal = Awaited<ReturnType<typeof withdrawalPage>>;
type Purchase = Withdrawal["purchase"];

/**
 * The customer's withdrawal from a purchase (14 days): the form while it is possible, otherwise
 * why not. `purchasesPath` is Mi Cuenta's Compras tab, which the route gives (Mi Cuenta builds on
 * payments).
 */
export function WithdrawalPage({
  page: { purchase, available },
  answer,
  purchasesPath,
}: {
  page: Withdrawal;
  answer: FormRefusal | undefined;
  purchasesPath: string;
}) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <RecordPageHead
        back={{ to: purchasesPath, label: "Volver a Compras" }}
        title="Desistir del contrato"
      />
      <div className={`${cardClasses} mt-6 space-y-4`}>
        <p>
          <strong>{purchase.serviceName}</strong> ·{" "}
          {formatPrice(purchase.price, { cents: "always" })}
          {purchase.completedAt ? ` · pagado el ${formatDate(purchase.completedAt, "date")}` : ""}
        </p>
        {available ? (
          <WithdrawalForm purchase={purchase} answer={answer} />
        ) : (
          <p role="status" className="text-slate-700">
            {purchase.withdrawalRequestedAt
              ? `Ya desististe de este contrato el ${formatDate(purchase.withdrawalRequestedAt, "longDateTime")}.`
              : "El plazo de desistimiento de esta compra ha terminado o el servicio ya se ha prestado por completo."}
          </p>
        )}
      </div>
    </section>
  );
}

function WithdrawalForm({
  purchase,
  answer,
}: {
  purchase: Purchase;
  answer: FormRefusal | undefined;
}) {
  const sending = useNavigation().state === "submitting";
  return (
    <>
      <p className="text-slate-700">
        Como consumidor, puedes desistir del contrato durante {WITHDRAWAL_DAYS} días naturales desde
        la compra, sin dar explicaciones, mientras el servicio no se haya prestado por completo. Te
        devolveremos el importe que corresponda en un plazo máximo de 14 días, por el mismo medio de
        pago; si el servicio ya había empezado a petición tuya, solo la parte no prestada.
      </p>
      <ValidatedForm
        method="post"
        schema={withdrawalSchema}
        messages={afterSaleMessages}
        answer={answer}
        aria-label="Desistir del contrato"
        className="space-y-4"
      >
        <Checkbox
          name="confirm"
          value="yes"
          label={`Desisto del contrato de ${purchase.serviceName}.`}
        />
        <Button type="submit" disabled={sending}>
          <Undo2 className="size-4" aria-hidden />
          {sending ? "Enviando..." : "Confirmar desistimiento"}
        </Button>
      </ValidatedForm>
    </>
  );
}
