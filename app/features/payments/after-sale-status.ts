/**
 * Delivery and withdrawal states of a paid purchase, without the forms' validation: the purchase
 * list (public pages' shared chunk) needs only these.
 */
import { siteDay } from "~/platform/dates";

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

/**
 * The consumer's withdrawal period for services: 14 calendar days from the contract (TRLGDCU
 * art. 104 a), and the trader's time to pay back after a withdrawal: 14 calendar days from being
 * told of it (art. 107.1).
 */
export const WITHDRAWAL_DAYS = 14;

/**
 * The last day of a period of `days` calendar days that starts with an event, as YYYY-MM-DD:
 * the day of the event is not counted and the period begins the next day (Código Civil art. 5.1,
 * Regulation 1182/71 art. 3.1), and days off are not left out (CC art. 5.2: "días naturales").
 * The period runs to the end of that day, Madrid time. A purchase paid on 1 December can be
 * withdrawn until the end of 15 December.
 */
export function lastDayOfPeriod(event: Date | string, days = WITHDRAWAL_DAYS): string {
  const [year, month, day] = siteDay(event).split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** Whether `now` is still inside a period whose last day is `lastDay` (YYYY-MM-DD). */
export const withinPeriod = (lastDay: string, now: Date): boolean => siteDay(now) <= lastDay;

type WithdrawalFacts = {
  status: string;
  completedAt: Date | string | null;
  deliveryStatus: string;
  withdrawalRequestedAt: Date | string | null;
};

/**
 * Whether 'Desistir del contrato' is offered: a paid purchase within its 14 days (counted as the
 * law counts them), not yet fully performed (art. 103 a), and not withdrawn already.
 */
export function canWithdraw(purchase: WithdrawalFacts, now = new Date()): boolean {
  if (purchase.status !== "completed" || !purchase.completedAt) return false;
  if (purchase.withdrawalRequestedAt || purchase.deliveryStatus === "delivered") return false;
  return withinPeriod(lastDayOfPeriod(purchase.completedAt), now);
}
