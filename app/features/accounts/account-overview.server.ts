import { purchasesOf, purchaseTotalsOf } from "~/features/payments/purchases.server";
import { profileOf } from "./profile.server";
import type { Viewer } from "./session.server";

const LATEST_PURCHASES = 5;

/** Mi Cuenta: who the customer is, their latest purchases and their totals. */
export async function accountOverview(viewer: Viewer) {
  const [profile, latest, totals] = await Promise.all([
    profileOf(viewer),
    purchasesOf(viewer.id, LATEST_PURCHASES),
    purchaseTotalsOf(viewer.id),
  ]);
  return { viewer, fullName: profile.fullName, purchases: latest, totals };
}
