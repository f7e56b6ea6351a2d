/**
 * One order's story, told the same way to the customer (Compras in Mi Cuenta) and to the staff
 * (/admin/pagos/:id): paid → in progress → delivered, or withdrawn (with the date the refund is
 * owed by), or refunded (when, why and by whom). A pure function of the purchase's facts, so both
 * pages, the server and the browser draw the same timeline (decision 050). No React, no database.
 */
import {
  canWithdraw,
  deliveryStatusLabel,
  lastDayOfPeriod,
  WITHDRAWAL_DAYS,
} from "./after-sale-status";
import { countsInTotals, purchaseStatusLabel } from "./purchase-status";
import { formatDate } from "~/platform/dates";

/** Who refunded: a staff member (name and e-mail, for the staff) or the provider's dashboard. */
export type Refunder = { name: string | null; email: string | null } | null;

export type OrderFacts = {
  status: string;
  completedAt: Date | string | null;
  deliveryStatus: string;
  deliveryUpdatedAt?: Date | string | null;
  withdrawalRequestedAt: Date | string | null;
  refundReason?: string | null;
  /** When the refund was applied (its activity entry or corrective invoice); null if unknown. */
  refundedAt?: Date | string | null;
  refundedBy?: Refunder;
};

export type TimelineStepKey =
  | "pending"
  | "failed"
  | "cancelled"
  | "paid"
  | "in_progress"
  | "delivered"
  | "withdrawn"
  | "refunded";

export type TimelineStep = {
  key: TimelineStepKey;
  title: string;
  at: Date | string | null;
  /** Facts of the step, each a sentence without its full stop (the page adds none either). */
  details: string[];
  /** done: it happened; upcoming: it may still happen. */
  state: "done" | "upcoming";
};

export type OrderTimeline = {
  /** The order's status label: 'Completado', 'Desistido', 'Reembolsado', 'Fallido'… */
  label: string;
  steps: TimelineStep[];
  /** Counts in 'Total gastado', revenue and AOV (only a completed, not withdrawn, purchase). */
  countsInTotals: boolean;
  /** The staff may still change its delivery: paid, not withdrawn, not refunded. */
  deliveryOpen: boolean;
  /** The staff may refund it: paid, or withdrawn and owed back. */
  refundOpen: boolean;
  /** The customer may try the payment again (a new checkout of the same service). */
  retry: boolean;
  /** The last day 'Desistir del contrato' is open (YYYY-MM-DD), while it is. */
  withdrawalOpenUntil: string | null;
  /** After a withdrawal: the last day the refund is due (YYYY-MM-DD, art. 107.1). */
  refundDueBy: string | null;
};

/** Said next to an order that no longer counts in the totals. */
export const NOT_IN_TOTALS = "No cuenta en el total";

/** A reason typed with or without its full stop is shown once, without one. */
export const sentence = (text: string): string => text.trim().replace(/[.\s]+$/u, "");

/** A YYYY-MM-DD day as a Date at Madrid's midday, for `formatDate(…, "date")`. */
export const dayAsDate = (day: string): Date => new Date(`${day}T12:00:00Z`);

const reached = ["in_progress", "delivered"] as const;

export function orderTimeline(order: OrderFacts, now = new Date()): OrderTimeline {
  const label = purchaseStatusLabel(order.status);
  const base = {
    label,
    countsInTotals: countsInTotals(order.status),
    deliveryOpen: false,
    refundOpen: false,
    retry: false,
    withdrawalOpenUntil: null,
    refundDueBy: null,
  };
  if (order.status === "failed" || order.status === "cancelled")
    return {
      ...base,
      retry: true,
      steps: [
        {
          key: order.status,
          title: order.status === "failed" ? "Pago no completado" : "Pago cancelado",
          at: null,
          details: ["No se ha cobrado nada"],
          state: "done",
        },
      ],
    };
  if (!["completed", "withdrawn", "refunded"].includes(order.status))
    return {
      ...base,
      steps: [
        {
          key: "pending",
          title: "Pendiente de pago",
          at: null,
          details: ["Esperando la confirmación del pago"],
          state: "done",
        },
      ],
    };

  const open = order.status === "completed";
  const steps: TimelineStep[] = [
    { key: "paid", title: "Pagado", at: order.completedAt, details: [], state: "done" },
  ];
  // Delivery: every stage reached; while the order is open, the ones still to come.
  const deliveryIndex = reached.indexOf(order.deliveryStatus as (typeof reached)[number]);
  reached.forEach((stage, index) => {
    const done = index <= deliveryIndex;
    if (!done && !open) return;
    steps.push({
      key: stage,
      title: deliveryStatusLabel(stage),
      at: done && index === deliveryIndex ? (order.deliveryUpdatedAt ?? null) : null,
      details: [],
      state: done ? "done" : "upcoming",
    });
  });

  let refundDueBy: string | null = null;
  if (order.withdrawalRequestedAt) {
    const dueBy = lastDayOfPeriod(order.withdrawalRequestedAt);
    const dueText = formatDate(dayAsDate(dueBy), "date");
    steps.push({
      key: "withdrawn",
      title: "Desistimiento del contrato",
      at: order.withdrawalRequestedAt,
      // While the refund is owed, the next step says by when; once made, the record keeps it.
      details:
        order.status === "withdrawn" ? [] : [`Plazo para devolver el importe: hasta el ${dueText}`],
      state: "done",
    });
    if (order.status === "withdrawn") {
      refundDueBy = dueBy;
      steps.push({
        key: "refunded",
        title: "Devolución del importe",
        at: null,
        details: [
          `A más tardar el ${dueText} (${WITHDRAWAL_DAYS} días naturales desde el desistimiento)`,
        ],
        state: "upcoming",
      });
    }
  }
  if (order.status === "refunded") {
    const by = order.refundedBy;
    // 'Ana Gil (ana@…)', or the e-mail alone when the staff member has no name on file.
    const who = by?.name ? (by.email ? `${by.name} (${by.email})` : by.name) : (by?.email ?? null);
    steps.push({
      key: "refunded",
      title: "Importe devuelto",
      at: order.refundedAt ?? null,
      details: [
        `Motivo: ${sentence(order.refundReason || "devolución del importe íntegro")}`,
        who ? `Por ${who}` : "Desde el panel del proveedor de pagos",
      ],
      state: "done",
    });
  }
  const withdrawable = canWithdraw(order, now);
  return {
    ...base,
    steps,
    deliveryOpen: open,
    refundOpen: open || order.status === "withdrawn",
    withdrawalOpenUntil:
      withdrawable && order.completedAt ? lastDayOfPeriod(order.completedAt) : null,
    refundDueBy,
  };
}
