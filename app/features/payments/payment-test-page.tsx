import { AlertTriangle, CheckCircle2, ExternalLink, XCircle } from "lucide-react";
import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { purchaseStatusLabel } from "./purchase-status";
import type { paymentTestOverview } from "./purchases.server";
import { RefreshButton } from "~/ui/signed-in/refresh-button";
import { DataTable } from "~/ui/signed-in/data-table";
import { formatDate } from "~/platform/dates";

type PaymentTestOverview = Awaited<ReturnType<typeof paymentTestOverview>>;

const shortId = (value: string | null) => (value ? `${value.slice(0, 12)}…` : "—");

const purchaseColumns = [
  "Compra",
  "Servicio",
  "Importe",
  "Estado",
  "Fecha",
  "Sesión de pago",
  "Payment intent",
] as const;

const stripeDashboardLinks = [
  { href: "https://dashboard.stripe.com/test/payments", label: "Panel de Stripe" },
  { href: "https://dashboard.stripe.com/test/webhooks", label: "Registros del webhook" },
];

/** /test-pagos: the visitor's purchases and whether the webhook processed them. */
export function PaymentTestPage({ overview }: { overview: PaymentTestOverview }) {
  if (!overview.viewer) {
    return (
      <section className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="text-3xl font-bold tracking-tight">Prueba de pagos</h1>
        <p className="mt-4 text-slate-600">Debes iniciar sesión para ver tus compras</p>
        <Link
          to="/login-cliente"
          className="mt-6 inline-block font-semibold text-brand-700 underline"
        >
          Iniciar sesión
        </Link>
      </section>
    );
  }
  const { viewer, purchases: rows, provider } = overview;
  const pending = rows.filter((row) => row.status === "pending").length;
  const completed = rows.filter((row) => row.status === "completed").length;
  const checklist = [
    { ok: true, label: `Sesión iniciada como ${viewer.email}` },
    {
      ok: viewer.emailVerified,
      label: viewer.emailVerified ? "Email verificado" : "Email sin verificar: no puedes pagar",
    },
    { ok: true, label: `Pasarela de pago: ${provider}` },
  ];
  return (
    <section className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Prueba de pagos</h1>
        <RefreshButton label="Recargar" />
      </div>
      <ul className="mt-6 space-y-2">
        {checklist.map((item) => (
          <li key={item.label} className="flex items-center gap-2 text-sm">
            {item.ok ? (
              <CheckCircle2 className="size-5 text-emerald-600" aria-hidden />
            ) : (
              <XCircle className="size-5 text-red-600" aria-hidden />
            )}
            {item.label}
          </li>
        ))}
      </ul>
      <dl className="mt-6 grid grid-cols-2 gap-4 sm:max-w-sm">
        <Count
          label="Pendientes"
          value={pending}
          testId="pending-count"
          box="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200"
          text="text-amber-900"
        />
        <Count
          label="Completadas"
          value={completed}
          testId="completed-count"
          box="rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-200"
          text="text-emerald-900"
        />
      </dl>
      <DataTable
        caption="Tus compras"
        headers={purchaseColumns}
        emptyText={rows.length === 0 ? "Todavía no tienes compras." : undefined}
        className="mt-8"
      >
        {rows.map((row) => (
          <tr key={row.id} data-status={row.status}>
            <td className="px-4 py-3 font-mono text-xs">{shortId(row.id)}</td>
            <td className="px-4 py-3">{row.serviceName}</td>
            <td className="px-4 py-3">{formatPrice(row.price)}</td>
            <td className="px-4 py-3">
              {purchaseStatusLabel(row.status)}
              {provider === "Simulado" &&
              row.provider === "simulated" &&
              row.status === "completed" &&
              row.checkoutSessionId ? (
                <Link
                  to={`/pago-simulado/${row.checkoutSessionId}`}
                  className="mt-1 block text-xs font-semibold text-brand-700 underline"
                >
                  Simular reembolso
                </Link>
              ) : null}
              {row.status === "pending" && !row.paymentIntentId ? (
                <span className="mt-1 flex items-center gap-1 text-xs text-amber-800">
                  <AlertTriangle className="size-3.5" aria-hidden />
                  El webhook no ha procesado este pago
                </span>
              ) : null}
            </td>
            <td className="px-4 py-3 whitespace-nowrap">
              {formatDate(row.createdAt, "shortDateTime")}
            </td>
            <td className="px-4 py-3 font-mono text-xs">{shortId(row.checkoutSessionId)}</td>
            <td className="px-4 py-3 font-mono text-xs">{shortId(row.paymentIntentId)}</td>
          </tr>
        ))}
      </DataTable>
      <div className="mt-6 flex flex-wrap gap-4 text-sm">
        {stripeDashboardLinks.map(({ href, label }) => (
          <a
            key={href}
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 font-semibold text-brand-700 underline"
          >
            {label}
            <ExternalLink className="size-4" aria-hidden />
          </a>
        ))}
      </div>
    </section>
  );
}

/** One figure of the page: its name and its count, in the colours given. */
function Count(props: { label: string; value: number; testId: string; box: string; text: string }) {
  return (
    <div className={props.box}>
      <dt className={`text-sm ${props.text}`}>{props.label}</dt>
      <dd className={`text-2xl font-bold ${props.text}`} data-testid={props.testId}>
        {props.value}
      </dd>
    </div>
  );
}
