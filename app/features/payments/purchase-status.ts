/**
 * Purchase states (spec section 4, plus 'withdrawn': the consumer withdrew from a paid contract,
 * TRLGDCU art. 102, and 'refunded': a paid purchase returned in full) and the one rule that moves
 * them. The order's timeline built on them is `order-timeline.ts` (decision 050).
 */
export const purchaseStatuses = [
  "pending",
  "failed",
  "cancelled",
  "completed",
  "withdrawn",
  "refunded",
] as const;
export type PurchaseStatus = (typeof purchaseStatuses)[number];

/**
 * A purchase only ever moves up this order, so provider events applied in any order end in the
 * same state: a late 'failed' can never undo a completed payment. Only a completed payment can
 * be withdrawn from; a completed or withdrawn one can be refunded (a withdrawal obliges the
 * refund, TRLGDCU art. 107).
 */
const rank: Record<PurchaseStatus, number> = {
  pending: 0,
  failed: 1,
  cancelled: 2,
  completed: 3,
  withdrawn: 4,
  refunded: 5,
};

export function canMove(from: PurchaseStatus, to: PurchaseStatus): boolean {
  if (to === "withdrawn") return from === "completed";
  if (to === "refunded") return from === "completed" || from === "withdrawn";
  return rank[to] > rank[from];
}

/** Statuses a purchase may come from to reach `to`. */
export function statusesBelow(to: PurchaseStatus): PurchaseStatus[] {
  return purchaseStatuses.filter((status) => canMove(status, to));
}

export const purchaseStatusLabels: Record<PurchaseStatus, string> = {
  pending: "Pendiente",
  completed: "Completado",
  failed: "Fallido",
  cancelled: "Cancelado",
  withdrawn: "Desistido",
  refunded: "Reembolsado",
};

/**
 * Only a completed purchase counts in 'Total gastado', revenue and AOV: a withdrawn one is owed
 * back (TRLGDCU art. 107) and a refunded one was paid back.
 */
export const countsInTotals = (status: string): boolean => status === "completed";

/** Unknown values are shown as pending (spec section 4). */
export function purchaseStatusLabel(status: string): string {
  return purchaseStatusLabels[status as PurchaseStatus] ?? purchaseStatusLabels.pending;
}

export type SimulatedOutcome = "pay" | "decline" | "cancel" | "refund";

/**
 * What the simulated checkout can still do with a purchase in `status`. Like Stripe Checkout, a
 * declined card can be retried on the same session; only a completed payment can be refunded.
 */
export function simulatedOutcomesFor(status: string): SimulatedOutcome[] {
  if (status === "completed" || status === "withdrawn") return ["refund"];
  if (status === "pending" || status === "failed") return ["pay", "decline", "cancel"];
  return [];
}
