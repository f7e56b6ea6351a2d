import { and, eq, inArray, sql } from "drizzle-orm";
import type { Viewer } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import type { Database, DatabaseTransaction } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { isUuid } from "~/platform/db/ids";
import { invoiceCounters, invoices, profiles, purchases } from "~/platform/db/schema";
import { siteYear } from "~/platform/dates";
import type { BillingData } from "./billing-data";
import { profileBillingOf } from "./profile-billing.server";
import {
  correctiveInvoiceType,
  isCompleteInvoice,
  saleInvoiceType,
  type BuyerIdentity,
} from "./invoice-type";
import { splitVat, VAT_RATE_PERCENT } from "~/features/catalogue/vat";
import { recordInvoice, type InvoiceFacts } from "~/features/verifactu/records.server";
import { invoiceCotejoUrl } from "~/features/verifactu/invoice-qr.server";
import { wakeVerifactuSender } from "~/features/verifactu/worker.server";
import { annulmentsOf } from "~/features/verifactu/records.server";

type Transaction = DatabaseTransaction;
export type Invoice = typeof invoices.$inferSelect;
type Series = Invoice["series"];

/** F2026-000001: the series letter, the year and six digits. */
export function formatInvoiceNumber(series: Series, year: number, sequence: number): string {
  return `${series}${year}-${String(sequence).padStart(6, "0")}`;
}

/**
 * The next number of a series in the year of the issue date (Spain's calendar). The counter row
 * stays locked until the caller's transaction ends: concurrent completions wait for each other,
 * and a transaction that rolls back gives its number back, so numbers never repeat or skip.
 */
async function nextInvoiceNumber(tx: Transaction, series: Series, issuedAt: Date) {
  const year = siteYear(issuedAt);
  const [counter] = await tx
    .insert(invoiceCounters)
    .values({ series, year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [invoiceCounters.series, invoiceCounters.year],
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  const sequence = counter!.lastNumber;
  return { year, sequence, number: formatInvoiceNumber(series, year, sequence) };
}

/** The company as the configuration names it (the same data /aviso-legal publishes). */
function seller() {
  const { company } = getConfig();
  return {
    sellerName: company.legalName,
    sellerTaxId: company.taxId,
    sellerAddress: company.address,
  };
}

type Buyer = BuyerIdentity & { address?: string | null; fullName?: string | null };

/**
 * Who the invoice names: the billing data given at checkout for this purchase, or else what the
 * customer's profile held at the time of the sale.
 */
async function buyerOf(tx: Transaction, purchaseId: string, userId: string | null): Promise<Buyer> {
  const [purchase] = await tx
    .select({
      name: purchases.billingName,
      taxId: purchases.billingTaxId,
      address: purchases.billingAddress,
    })
    .from(purchases)
    .where(eq(purchases.id, purchaseId));
  // Given at checkout: a name with a NIF, or a consumer's name and address (art. 6.1.d).
  if (purchase?.name && (purchase.taxId || purchase.address)) return purchase;
  if (!userId) return {};
  const [profile] = await tx
    .select({
      fullName: profiles.fullName,
      taxId: profiles.taxId,
      name: profiles.billingName,
      address: profiles.billingAddress,
    })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return profile ?? {};
}

type Sale = {
  purchaseId: string;
  userId: string | null;
  serviceName: string;
  customerEmail: string;
  amountCents: number;
  currency: string;
  issuedAt: Date;
};

/** The invoices an issued one names: the one it corrects, or the one it replaces. */
type Related = { corrected?: Invoice; substituted?: Invoice };

/** What the billing record of an issued invoice says of it. */
function invoiceFacts(invoice: Invoice, { corrected, substituted }: Related = {}): InvoiceFacts {
  return {
    invoiceId: invoice.id,
    number: invoice.number,
    issuedAt: invoice.issuedAt,
    type: invoice.invoiceType,
    description: invoice.description,
    recipient:
      invoice.customerTaxId && invoice.customerName && invoice.invoiceType !== "F2"
        ? { name: invoice.customerName, taxId: invoice.customerTaxId }
        : undefined,
    // A complete invoice without the consumer's NIF, and the rectificativa of one (art. 6.1.d).
    withoutRecipientId:
      (invoice.invoiceType === "F2" && invoice.kind === "complete") ||
      (invoice.invoiceType === "R5" && corrected?.kind === "complete"),
    corrected: corrected ? { number: corrected.number, issuedAt: corrected.issuedAt } : undefined,
    // An F3 is issued after the sale: it names the simplified invoice and the day of the sale.
    substituted: substituted
      ? { number: substituted.number, issuedAt: substituted.issuedAt }
      : undefined,
    operatedAt: substituted?.issuedAt,
    vatRatePercent: invoice.vatRate,
    baseCents: invoice.baseAmount,
    vatCents: invoice.vatAmount,
    totalCents: invoice.totalAmount,
  };
}

/**
 * Called once a transaction that may have issued invoices has committed: their records go to
 * AEAT at once when its wait allows, not at the sender's next poll.
 */
export function sendNewInvoiceRecords() {
  wakeVerifactuSender();
}

/**
 * The invoice of a completed payment and its Verifactu record, issued in the transaction that
 * completes it: complete when the buyer is named (F1 with their NIF, F2 marked art. 6.1.d
 * without it), simplified (F2) otherwise (invoice-type.ts; checkout asks above 400 €).
 */
export async function issueSaleInvoice(tx: Transaction, sale: Sale): Promise<Invoice> {
  const buyer = await buyerOf(tx, sale.purchaseId, sale.userId);
  const type = saleInvoiceType(buyer);
  const complete = isCompleteInvoice(buyer);
  const { year, sequence, number } = await nextInvoiceNumber(tx, "F", sale.issuedAt);
  const { baseCents, vatCents } = splitVat(sale.amountCents);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      number,
      series: "F",
      year,
      sequence,
      kind: complete ? "complete" : "simplified",
      invoiceType: type,
      issuedAt: sale.issuedAt,
      purchaseId: sale.purchaseId,
      ...seller(),
      customerEmail: sale.customerEmail,
      customerName: complete ? buyer.name : (buyer.fullName ?? null),
      customerTaxId: complete ? buyer.taxId || null : null,
      customerAddress: complete ? (buyer.address ?? null) : null,
      description: sale.serviceName,
      baseAmount: baseCents,
      vatRate: VAT_RATE_PERCENT,
      vatAmount: vatCents,
      totalAmount: sale.amountCents,
      currency: sale.currency,
    })
    .returning();
  await recordInvoice(tx, invoiceFacts(invoice!));
  return invoice!;
}

/**
 * The invoice that stands for a sale: the complete one that replaced its simplified invoice, if
 * the buyer asked for one, or else the invoice issued with the sale.
 */
async function invoiceInForce(tx: Transaction, purchaseId: string) {
  const issued = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.purchaseId, purchaseId), eq(invoices.series, "F")));
  return issued.find((invoice) => invoice.substitutesInvoiceId) ?? issued[0];
}

/**
 * The corrective invoice of a refunded sale (RD 1619/2012 art. 15): the same customer and line
 * with negative amounts, naming the invoice it corrects and why. Undefined when the sale has no
 * invoice (completed before invoices existed); a second refund finds the first one's.
 */
export async function issueCorrectiveInvoice(
  tx: Transaction,
  { purchaseId, reason, issuedAt }: { purchaseId: string; reason: string; issuedAt: Date },
): Promise<Invoice | undefined> {
  const original = await invoiceInForce(tx, purchaseId);
  if (!original) return undefined;
  const [existing] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.purchaseId, purchaseId), eq(invoices.series, "R")));
  if (existing) return existing;
  const { year, sequence, number } = await nextInvoiceNumber(tx, "R", issuedAt);
  const [corrective] = await tx
    .insert(invoices)
    .values({
      ...original,
      id: undefined,
      number,
      series: "R",
      year,
      sequence,
      kind: "corrective",
      invoiceType: correctiveInvoiceType(original.invoiceType),
      issuedAt,
      correctsInvoiceId: original.id,
      substitutesInvoiceId: null,
      correctionReason: reason,
      ...seller(),
      baseAmount: -original.baseAmount,
      vatAmount: -original.vatAmount,
      totalAmount: -original.totalAmount,
    })
    .returning();
  await recordInvoice(tx, invoiceFacts(corrective!, { corrected: original }));
  return corrective!;
}

/** Why a simplified invoice cannot be replaced by a complete one (decision 070). */
export type SubstitutionRefusal =
  "notFound" | "notSimplified" | "alreadySubstituted" | "notInForce";

export type Substitution =
  | { ok: true; invoice: Invoice; substituted: Invoice }
  | { ok: false; reason: SubstitutionRefusal; substitute?: Pick<Invoice, "id" | "number"> };

/** What decides whether a sale's invoice may still be replaced, read together. */
export type SubstitutionFacts = {
  invoice: Pick<Invoice, "series" | "kind" | "invoiceType" | "substitutesInvoiceId">;
  purchaseStatus: string;
  substitute?: Pick<Invoice, "id" | "number">;
  hasCorrective: boolean;
  annulled: boolean;
};

/**
 * A simplified invoice of a sale that stands (paid, not withdrawn, refunded or corrected, not
 * annulled) may be replaced once by a complete one. A complete invoice needs no replacing: a
 * change to its buyer's data goes through a corrective invoice (art. 15.1).
 */
export function substitutionRefusal(facts: SubstitutionFacts): SubstitutionRefusal | undefined {
  const { invoice } = facts;
  if (invoice.series !== "F" || invoice.substitutesInvoiceId) return "notSimplified";
  if (invoice.kind !== "simplified" || invoice.invoiceType !== "F2") return "notSimplified";
  if (facts.substitute) return "alreadySubstituted";
  if (facts.purchaseStatus !== "completed" || facts.hasCorrective || facts.annulled)
    return "notInForce";
  return undefined;
}

/**
 * The facts of one invoice; with `lock`, its row stays locked until the caller's transaction
 * ends, so two requests at once see one another's F3.
 */
async function substitutionFactsOf(tx: Transaction, invoiceId: string, { lock = false } = {}) {
  if (!isUuid(invoiceId)) return undefined;
  const query = tx
    .select({ invoice: invoices, purchaseStatus: purchases.status, userId: purchases.userId })
    .from(invoices)
    .innerJoin(purchases, eq(purchases.id, invoices.purchaseId))
    .where(eq(invoices.id, invoiceId));
  const [row] = lock ? await query.for("update", { of: invoices }) : await query;
  if (!row) return undefined;
  const [[substitute], [corrective], annulled] = await Promise.all([
    tx
      .select({ id: invoices.id, number: invoices.number })
      .from(invoices)
      .where(eq(invoices.substitutesInvoiceId, invoiceId)),
    tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.purchaseId, row.invoice.purchaseId), eq(invoices.series, "R"))),
    annulmentsOf(tx, [invoiceId]),
  ]);
  return {
    ...row,
    substitute,
    hasCorrective: Boolean(corrective),
    annulled: annulled.has(invoiceId),
  };
}

/**
 * A customer's own invoice with what decides its substitution, and their profile's billing data
 * to start the form from; undefined for another customer's invoice.
 */
export async function substitutionOf(userId: string, invoiceId: string) {
  return getDb().transaction(async (tx) => {
    const facts = await substitutionFactsOf(tx, invoiceId);
    if (!facts || facts.userId !== userId) return undefined;
    const { fullName, ...profile } = await profileBillingOf(userId, tx);
    return {
      invoice: facts.invoice,
      substitute: facts.substitute,
      refusal: substitutionRefusal(facts),
      // A complete invoice names someone: the full name when no billing name was kept.
      profileBilling: { ...profile, name: profile.name || fullName },
    };
  });
}

/**
 * A complete invoice in place of a simplified one, at the buyer's request (RD 1619/2012 art.
 * 15.1; decision 070): a new number of the F series, the buyer named with their NIF and
 * address, the same operation and amounts, naming the invoice it replaces and the day of the
 * sale; recorded as an F3 with FacturasSustituidas. Only the buyer's own invoice (`userId`); the
 * row lock makes two requests at once give one F3.
 */
export async function issueSubstituteInvoice(
  tx: Transaction,
  {
    invoiceId,
    userId,
    buyer,
    issuedAt,
  }: { invoiceId: string; userId: string; buyer: BillingData; issuedAt: Date },
): Promise<Substitution> {
  const facts = await substitutionFactsOf(tx, invoiceId, { lock: true });
  if (!facts || facts.userId !== userId) return { ok: false, reason: "notFound" };
  const refusal = substitutionRefusal(facts);
  if (refusal) return { ok: false, reason: refusal, substitute: facts.substitute };
  const original = facts.invoice;
  const { year, sequence, number } = await nextInvoiceNumber(tx, "F", issuedAt);
  const [invoice] = await tx
    .insert(invoices)
    .values({
      ...original,
      id: undefined,
      number,
      series: "F",
      year,
      sequence,
      kind: "complete",
      invoiceType: "F3",
      issuedAt,
      substitutesInvoiceId: original.id,
      ...seller(),
      customerName: buyer.name,
      customerTaxId: buyer.taxId,
      customerAddress: buyer.address,
    })
    .returning();
  await recordInvoice(tx, invoiceFacts(invoice!, { substituted: original }));
  return { ok: true, invoice: invoice!, substituted: original };
}

/**
 * The invoices of some purchases, by purchase: its invoice, the complete one that replaced it
 * if the buyer asked, and once refunded the corrective; `substitutable` when the buyer may still
 * ask for a complete invoice in place of the simplified one.
 */
export async function invoicesOfPurchases(purchaseIds: string[]) {
  const byPurchase = new Map<string, PurchaseInvoices>();
  if (purchaseIds.length === 0) return byPurchase;
  const rows = await getDb()
    .select({
      id: invoices.id,
      number: invoices.number,
      series: invoices.series,
      kind: invoices.kind,
      invoiceType: invoices.invoiceType,
      substitutesInvoiceId: invoices.substitutesInvoiceId,
      purchaseId: invoices.purchaseId,
      purchaseStatus: purchases.status,
    })
    .from(invoices)
    .innerJoin(purchases, eq(purchases.id, invoices.purchaseId))
    .where(inArray(invoices.purchaseId, purchaseIds));
  const annulled = await annulmentsOf(
    getDb(),
    rows.map((row) => row.id),
  );
  const link = (row: (typeof rows)[number]) => ({
    id: row.id,
    number: row.number,
    annulled: annulled.has(row.id),
  });
  for (const purchaseId of new Set(rows.map((row) => row.purchaseId))) {
    const own = rows.filter((row) => row.purchaseId === purchaseId);
    const sale = own.find((row) => row.series === "F" && !row.substitutesInvoiceId);
    const substitute = own.find((row) => row.substitutesInvoiceId);
    const corrective = own.find((row) => row.series === "R");
    byPurchase.set(purchaseId, {
      sale: sale && link(sale),
      substitute: substitute && link(substitute),
      corrective: corrective && link(corrective),
      substitutable:
        sale !== undefined &&
        !substitutionRefusal({
          invoice: sale,
          purchaseStatus: sale.purchaseStatus,
          substitute,
          hasCorrective: corrective !== undefined,
          annulled: annulled.has(sale.id),
        }),
    });
  }
  return byPurchase;
}

/** An invoice as its lists show it; `annulled`: its registro de anulación was generated. */
export type InvoiceLink = { id: string; number: string; annulled: boolean };

export type PurchaseInvoices = {
  sale?: InvoiceLink;
  substitute?: InvoiceLink;
  corrective?: InvoiceLink;
  substitutable: boolean;
};

type Reader = Pick<Database, "select" | "selectDistinctOn">;

/**
 * An invoice's PDF: a corrective one names the number and date of the invoice it corrects, an F3
 * the simplified one it replaces (which says by which), one with a Verifactu record carries the
 * QR of what AEAT received, and an annulled one says so.
 */
export async function invoicePdf(reader: Reader, invoice: Invoice): Promise<Buffer> {
  const numberAndDate = { number: invoices.number, issuedAt: invoices.issuedAt };
  const [[corrected], [substituted], [substitute], annulled] = await Promise.all([
    invoice.correctsInvoiceId
      ? reader
          .select(numberAndDate)
          .from(invoices)
          .where(eq(invoices.id, invoice.correctsInvoiceId))
      : [],
    invoice.substitutesInvoiceId
      ? reader
          .select(numberAndDate)
          .from(invoices)
          .where(eq(invoices.id, invoice.substitutesInvoiceId))
      : [],
    reader
      .select(numberAndDate)
      .from(invoices)
      .where(eq(invoices.substitutesInvoiceId, invoice.id)),
    annulmentsOf(reader, [invoice.id]),
  ]);
  // PDFKit and the QR encoder are loaded with the first invoice, not at start (decision 039).
  const { renderInvoicePdf } = await import("./invoice-pdf.server");
  return renderInvoicePdf(invoice, {
    brandName: getConfig().company.brandName,
    corrected,
    substituted,
    substitute,
    annulledAt: annulled.get(invoice.id),
    cotejoUrl: await invoiceCotejoUrl(reader, invoice.id),
  });
}

/** An invoice as a PDF download, named by its number. */
async function invoicePdfResponse(invoice: Invoice): Promise<Response> {
  const pdf = await invoicePdf(getDb(), invoice);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="factura-${invoice.number}.pdf"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

const notFound = () => new Response("Factura no encontrada", { status: 404 });

/** A customer's own invoice: one of another customer answers 404, like one that does not exist. */
export async function customerInvoiceDownload(viewer: Viewer, invoiceId: string) {
  if (!isUuid(invoiceId)) throw notFound();
  const [row] = await getDb()
    .select({ invoice: invoices })
    .from(invoices)
    .innerJoin(purchases, eq(purchases.id, invoices.purchaseId))
    .where(and(eq(invoices.id, invoiceId), eq(purchases.userId, viewer.id)));
  if (!row) throw notFound();
  return invoicePdfResponse(row.invoice);
}

/** Any invoice, for the staff. */
export async function staffInvoiceDownload(invoiceId: string) {
  if (!isUuid(invoiceId)) throw notFound();
  const [invoice] = await getDb().select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!invoice) throw notFound();
  return invoicePdfResponse(invoice);
}
