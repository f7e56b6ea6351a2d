import type { DatabaseTransaction } from "~/platform/db/client.server";

/** A paid sale as the features above payments see it, inside the webhook's transaction. */
export type CompletedSale = {
  purchaseId: string;
  /** The buyer's account (null once it was deleted, before the payment arrived). */
  userId: string | null;
  /** The catalogue service's id (`serviceById`), and its name as sold. */
  serviceId: number;
  serviceName: string;
  amountCents: number;
  currency: string;
  completedAt: Date;
  /** The invoice the sale was just given. */
  invoiceNumber: string;
};

/**
 * What a feature does when one of its sales is paid (a quote becomes paid, a booked hour
 * confirmed), with the transaction that completes the sale: it commits with the sale or, by
 * throwing, undoes it whole, and the payment provider delivers the event again (decision 077).
 */
export type SaleReaction = (tx: DatabaseTransaction, sale: CompletedSale) => Promise<void>;

const reactions = new Map<string, SaleReaction>();

/**
 * Registers a feature's reaction to completed sales. The server's start calls it (server.ts
 * knows every feature; payments knows none above it), once per name.
 */
export function reactToCompletedSales(name: string, reaction: SaleReaction): () => void {
  if (reactions.has(name)) throw new Error(`a sale reaction named "${name}" is registered already`);
  reactions.set(name, reaction);
  return () => reactions.delete(name);
}

/** Runs every registered reaction, in the order they were registered, with the sale's `tx`. */
export async function runSaleReactions(tx: DatabaseTransaction, sale: CompletedSale) {
  for (const reaction of reactions.values()) await reaction(tx, sale);
}
