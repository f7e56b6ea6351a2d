/**
 * Delivery and withdrawal states of a paid purchase, without the forms' validation: the purchase
 * list (public pages' shared chunk) needs only these.
 */

/** Payment and delivery are two things: a paid purchase is then started and delivered. */
export const deliveryStatuses = ["pending", "in_progress", "delivered"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const deliveryStatusLabels: Record<DeliveryStatus, string> = {
  pending: "Pendiente de inicio",
  in_progress: "En curso",
  delivered: "Entregado",
};

export function deliveryStatusLabel(status: string): string {
  return deliveryStatusLabels[status as DeliveryStatus] ?? deliveryStatusLabels.pending;
}

/** The consumer's withdrawal period for services: 14 calendar days from the contract. */
export const WITHDRAWAL_DAYS = 14;
const WITHDRAWAL_MS = WITHDRAWAL_DAYS * 24 * 60 * 60_000;

type WithdrawalFacts = {
  status: string;
  completedAt: Date | string | null;
  deliveryStatus: string;
  withdrawalRequestedAt: Date | string | null;
};

/**
 * Whether 'Desistir del contrato' is offered: a paid purchase within 14 days of its payment,
 * not yet fully performed, and not withdrawn already.
 */
export function canWithdraw(purchase: WithdrawalFacts, now = new Date()): boolean {
  if (purchase.status !== "completed" || !purchase.completedAt) return false;
  if (purchase.withdrawalRequestedAt || purchase.deliveryStatus === "delivered") return false;
  return now.getTime() - new Date(purchase.completedAt).getTime() <= WITHDRAWAL_MS;
}
