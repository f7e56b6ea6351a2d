/**
 * Purchase states (spec section 4, plus 'refunded': a completed payment returned in full) and
 * the one rule that moves them.
 */
export const purchaseStatuses = [
  "pending",
  "failed",
  "cancelled",
  "completed",
  "refunded",
] as const;
export type PurchaseStatus = (typeof purchaseStatuses)[number];

/**
 * A purchase only ever moves up this order, so provider events applied in any order end in the
 * same state: a late 'failed' can never undo a completed payment. Only a completed payment can
 * be refunded.
 */
const rank: Record<PurchaseStatus, number> = {
  pending: 0,
  failed: 1,
  cancelled: 2,
  completed: 3,
  refunded: 4,
};

export function canMove(from: PurchaseStatus, to: PurchaseStatus): boolean {
  if (to === "refunded") return from === "completed";
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
  refunded: "Reembolsado",
};

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
  if (status === "completed") return ["refund"];
  if (status === "pending" || status === "failed") return ["pay", "decline", "cancel"];
  return [];
}
