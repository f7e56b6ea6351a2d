import { ArrowLeft, Undo2 } from "lucide-react";
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/mi-cuenta-desistir";
import { accountTabPath } from "~/features/customer-area/account-tabs";
import { requireCustomer } from "~/features/identity/session.server";
import { formatPrice } from "~/features/catalogue/services";
import { afterSaleMessages, withdrawalSchema } from "~/features/payments/after-sale-rules";
import { WITHDRAWAL_DAYS } from "~/features/payments/after-sale-status";
import { withdrawalAction, withdrawalPage } from "~/features/payments/after-sale.server";
import { pageMeta } from "~/features/seo/meta";
import { Button } from "~/ui/button";
import { formatDate } from "~/ui/dates";
import { cardClasses, Checkbox, ValidatedForm } from "~/ui/form";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, {
    title: "Desistir del contrato",
    description: "Ejerce tu derecho de desistimiento de 14 días.",
    path: `/mi-cuenta/compras/${params.purchaseId}/desistir`,
    noIndex: true,
  });

export async function loader({ request, params }: Route.LoaderArgs) {
  return withdrawalPage(await requireCustomer(request), params.purchaseId);
}

export async function action({ request, params }: Route.ActionArgs) {
  return withdrawalAction(request, await requireCustomer(request), params.purchaseId);
}

export default function Withdrawal({ loaderData, actionData }: Route.ComponentProps) {
  const { purchase, available } = loaderData;
  const sending = useNavigation().state === "submitting";
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <Link
        to={accountTabPath("compras")}
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Volver a Compras
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Desistir del contrato</h1>
      <div className={`${cardClasses} mt-6 space-y-4`}>
        <p>
          <strong>{purchase.serviceName}</strong> ·{" "}
          {formatPrice(purchase.price, { cents: "always" })}
          {purchase.completedAt ? ` · pagado el ${formatDate(purchase.completedAt, "date")}` : ""}
        </p>
        {available ? (
          <>
            <p className="text-slate-700">
              Como consumidor, puedes desistir del contrato durante {WITHDRAWAL_DAYS} días naturales
              desde la compra, sin dar explicaciones, mientras el servicio no se haya prestado por
              completo. Te devolveremos el importe que corresponda en un plazo máximo de 14 días,
              por el mismo medio de pago; si el servicio ya había empezado a petición tuya, solo la
              parte no prestada.
            </p>
            <ValidatedForm
              method="post"
              schema={withdrawalSchema}
              messages={afterSaleMessages}
              answer={actionData}
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
