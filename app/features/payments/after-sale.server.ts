import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import { requireCapability, type Staff, type Viewer } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { invoiceRecordStates } from "~/features/billing/invoice-record-states.server";
import { invoiceSummaryColumns } from "~/features/billing/invoice-summary.server";
import { formatPrice } from "~/features/catalogue/services";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { isUuid } from "~/platform/db/ids";
import {
  customers,
  invoices,
  payments,
  profiles,
  purchases,
  staffAuditLog,
  userActivityLog,
} from "~/platform/db/schema";
import { checkForm, type FormError } from "~/platform/forms/form-answer";
import { readForm, refuse as refuseForm } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails } from "~/platform/mail/outbox.server";
import {
  deliveryMail,
  withdrawalAcknowledgement,
  withdrawalNotice,
} from "./after-sale-mails.server";
import {
  afterSaleMessages,
  deliverySchema,
  refundSchema,
  withdrawalSchema,
  type AfterSaleMessage,
} from "./after-sale-rules";
import { canWithdraw, deliveryStatusLabel } from "./after-sale-status";
import { orderTimeline, type Refunder } from "./order-timeline";
import { refundDatesOf } from "./purchases.server";
import { simulatedPaymentsAvailable, stripeClient } from "./providers.server";
import { simulatedEvents } from "./simulated-checkout.server";
import { handleWebhook, paymentLeavesTotals } from "./webhook.server";

type Purchase = typeof purchases.$inferSelect;

const notFound = () => new Response("Not Found", { status: 404 });

/** A refused form: one message, or every problem (the first is shown), and why (its status). */
const refuse = (problems: AfterSaleMessage | FormError[], status = 400) =>
  refuseForm(problems, { status });

/** A posted form's text fields; none when the body is no form. */
const readFields = async (request: Request) => (await readForm(request))?.fields ?? {};

const mailContext = () => ({
  brandName: getConfig().company.brandName,
  siteUrl: getConfig().siteUrl,
});

// ---------------------------------------------------------------------------------------------
// The staff's payment page: the sale, its invoices, delivery, refund and any withdrawal.

async function findSale(paymentId: string) {
  if (!isUuid(paymentId)) return undefined;
  const [row] = await getDb()
    .select({ payment: payments, purchase: purchases })
    .from(payments)
    .innerJoin(purchases, eq(purchases.id, payments.purchaseId))
    .where(eq(payments.id, paymentId));
  return row;
}

export async function staffPaymentPage(paymentId: string) {
  const sale = await findSale(paymentId);
  if (!sale) throw notFound();
  const issued = await getDb()
    .select(invoiceSummaryColumns)
    .from(invoices)
    .where(eq(invoices.purchaseId, sale.purchase.id))
    .orderBy(asc(invoices.issuedAt));
  const { purchase, payment } = sale;
  const [recordStates, refund, customerPageId] = await Promise.all([
    invoiceRecordStates(issued.map((invoice) => invoice.id)),
    purchase.status === "refunded" ? refundOf(purchase, payment.id, issued) : undefined,
    customerPageIdOf(payment.customerEmail, purchase.userId),
  ]);
  const timeline = orderTimeline({ ...purchase, ...refund });
  return {
    timeline,
    payment: {
      id: payment.id,
      customerEmail: payment.customerEmail,
      customerPageId,
      serviceName: payment.serviceName,
      amount: payment.amount,
      status: payment.status,
      createdAt: payment.createdAt,
    },
    purchase: {
      id: purchase.id,
      status: purchase.status,
      provider: purchase.provider,
      completedAt: purchase.completedAt,
      deliveryStatus: purchase.deliveryStatus,
      deliveryNote: purchase.deliveryNote,
      deliveryUpdatedAt: purchase.deliveryUpdatedAt,
      immediateStartConsentAt: purchase.immediateStartConsentAt,
      withdrawalRequestedAt: purchase.withdrawalRequestedAt,
      refundReason: purchase.refundReason,
      refundRequestedAt: purchase.refundRequestedAt,
    },
    invoices: issued.map((invoice) => ({
      ...invoice,
      recordState: recordStates.get(invoice.id) ?? null,
    })),
  };
}

/**
 * The key of the buyer's staff page, /admin/clientes/:id (decision 052): their Clientes row
 * (one per billing e-mail, customers_email_idx), else the buying account; null for neither.
 */
async function customerPageIdOf(email: string, userId: string | null): Promise<string | null> {
  const [customer] = await getDb()
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.email, email));
  return customer?.id ?? userId;
}

/**
 * When a refunded sale was refunded and by whom: the date of its corrective invoice (issued in
 * the refund's transaction) or of its activity entry; the staff member from the audit log's
 * 'payment.refund' row (it outlives the account), named by their profile when it still exists.
 * Nobody when the refund was made in the provider's dashboard.
 */
async function refundOf(
  purchase: Purchase,
  paymentId: string,
  issued: { kind: string; issuedAt: Date }[],
): Promise<{ refundedAt: Date | null; refundedBy: Refunder }> {
  const [asked] = await getDb()
    .select({ email: staffAuditLog.actorEmail, name: profiles.fullName })
    .from(staffAuditLog)
    .leftJoin(profiles, eq(profiles.id, staffAuditLog.actorId))
    .where(and(eq(staffAuditLog.action, "payment.refund"), eq(staffAuditLog.targetId, paymentId)))
    .orderBy(desc(staffAuditLog.at))
    .limit(1);
  const corrective = issued.find((invoice) => invoice.kind === "corrective")?.issuedAt;
  const logged = purchase.userId
    ? (await refundDatesOf(purchase.userId)).get(purchase.id)
    : undefined;
  return {
    refundedAt: corrective ?? logged ?? null,
    refundedBy: asked ? { name: asked.name, email: asked.email } : null,
  };
}

/**
 * POST on the staff's payment page: a change of delivery (`payments.delivery`), or a full refund
 * (`payments.refund`); 403 without the capability, before anything changes. Each is written to
 * the staff audit log in the transaction that records it.
 */
export async function staffPaymentAction(request: Request, staff: Staff, paymentId: string) {
  const sale = await findSale(paymentId);
  if (!sale) throw notFound();
  const form = await readFields(request);
  if (form.intent === "delivery") requireCapability(staff, "payments.delivery");
  if (form.intent === "refund") requireCapability(staff, "payments.refund");
  const back = `/admin/pagos/${paymentId}`;
  // Money leaves the company: the staff member proves who they are again (decision 063).
  if (form.intent === "refund") await requireRecentAuthentication(request, { fallback: back });
  try {
    if (form.intent === "delivery") {
      const parsed = checkForm(deliverySchema, form);
      if (!parsed.ok) return refuse(parsed.errors);
      const changed = await changeDelivery(sale, staff, parsed.data);
      if (!changed) return refuse("deliveryNotPaid", 409);
      return redirectWithToast(back, { kind: "success", ...afterSaleMessages.deliveryUpdated });
    }
    if (form.intent === "refund") {
      const parsed = checkForm(refundSchema, form);
      if (!parsed.ok) return refuse(parsed.errors);
      const outcome = await refundAsStaff(staff, sale, parsed.data.reason);
      if (outcome === "notRefundable") return refuse(outcome, 409);
      if (outcome === "refundFailed") return refuse(outcome, 502);
      return redirectWithToast(back, { kind: "success", ...afterSaleMessages[outcome] });
    }
  } catch (error) {
    getLogger().error({ err: error, paymentId }, "a staff change to a payment failed");
    return refuse("saveFailed", 503);
  }
  return refuse("saveFailed");
}

/**
 * Moves a paid purchase's delivery on, logs it (the account's activity and the staff audit log)
 * and mails the customer; false when unpaid.
 */
async function changeDelivery(
  { purchase, payment }: { purchase: Purchase; payment: typeof payments.$inferSelect },
  staff: Staff,
  change: { deliveryStatus: Purchase["deliveryStatus"]; note: string },
): Promise<boolean> {
  const customerEmail = payment.customerEmail;
  const changed = await getDb().transaction(async (tx) => {
    const [updated] = await tx
      .update(purchases)
      .set({
        deliveryStatus: change.deliveryStatus,
        deliveryNote: change.note || null,
        deliveryUpdatedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(purchases.id, purchase.id), eq(purchases.status, "completed")))
      .returning({ id: purchases.id });
    if (!updated) return false;
    await tx.insert(userActivityLog).values({
      userId: purchase.userId,
      activityType: "delivery_updated",
      description: `Entrega de ${purchase.serviceName}: ${deliveryStatusLabel(change.deliveryStatus)}`,
      metadata: { purchaseId: purchase.id, deliveryStatus: change.deliveryStatus },
    });
    await recordStaffAction(tx, {
      actor: staff,
      action: "payment.delivery",
      target: payment.id,
      details: {
        from: purchase.deliveryStatus,
        to: change.deliveryStatus,
        nota: change.note || null,
        compra: purchase.id,
      },
    });
    await enqueueMails(tx, [
      deliveryMail(
        purchase,
        customerEmail,
        { status: change.deliveryStatus, note: change.note },
        mailContext(),
      ),
    ]);
    return true;
  });
  if (changed) getMailWorker().wake();
  return changed;
}

type RefundOutcome = "refunded" | "refundRequested" | "notRefundable" | "refundFailed";

/**
 * A full refund asked by the staff: the reason is recorded on the purchase first (the corrective
 * invoice quotes it), then the provider refunds. With Stripe, its `charge.refunded` event then
 * applies it through the webhook like any refund (decision 014); the simulator applies the same
 * event at once. Stripe's idempotency key makes a second click the same refund.
 */
async function refundAsStaff(
  staff: Staff,
  { purchase, payment }: { purchase: Purchase; payment: typeof payments.$inferSelect },
  reason: string,
): Promise<RefundOutcome> {
  if (purchase.provider === "stripe" && !purchase.paymentIntentId) return "notRefundable";
  // The request, its activity line and its audit row are one transaction; the provider after.
  const marked = await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(purchases)
      .set({ refundReason: reason, refundRequestedAt: new Date(), refundRequestedBy: staff.id })
      // A withdrawn purchase is refunded too: the withdrawal obliges it (TRLGDCU art. 107.1).
      .where(
        and(eq(purchases.id, purchase.id), inArray(purchases.status, ["completed", "withdrawn"])),
      )
      .returning();
    if (!row) return undefined;
    await tx.insert(userActivityLog).values({
      userId: purchase.userId,
      activityType: "refund_requested",
      description: `Reembolso solicitado por el equipo: ${purchase.serviceName}`,
      metadata: { purchaseId: purchase.id, by: staff.id, reason },
    });
    await recordStaffAction(tx, {
      actor: staff,
      action: "payment.refund",
      target: payment.id,
      details: {
        motivo: reason,
        importe: formatPrice(payment.amount, { cents: "always" }),
        proveedor: purchase.provider,
      },
    });
    return row;
  });
  if (!marked) return "notRefundable";
  const failed = async () => {
    await recordStaffAction(getDb(), {
      actor: staff,
      action: "payment.refund_failed",
      target: payment.id,
      details: { proveedor: purchase.provider },
    });
    return "refundFailed" as const;
  };
  try {
    if (purchase.provider === "simulated") {
      if (!simulatedPaymentsAvailable()) return await failed();
      await applySimulatedRefund(marked, payment.customerEmail);
      return "refunded";
    }
    const stripe = await stripeClient(getConfig());
    await stripe.refunds.create(
      {
        payment_intent: purchase.paymentIntentId!,
        reason: "requested_by_customer",
        metadata: { purchase_id: purchase.id },
      },
      { idempotencyKey: `refund-${purchase.id}` },
    );
    return "refundRequested";
  } catch (error) {
    getLogger().error({ err: error, purchaseId: purchase.id }, "a staff refund failed");
    return failed();
  }
}

/** The simulator's refund: Stripe's `charge.refunded`, signed and applied by the webhook. */
async function applySimulatedRefund(purchase: Purchase, email: string) {
  const stripe = await stripeClient(getConfig());
  for (const event of simulatedEvents("refund", purchase, email)) {
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: getConfig().stripe.webhookSecret,
    });
    const answer = await handleWebhook(getDb(), payload, header);
    if (answer.status !== 200) throw new Error(`simulated refund answered ${answer.status}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The customer's withdrawal ('Desistir del contrato').

async function ownPurchase(viewer: Viewer, purchaseId: string) {
  if (!isUuid(purchaseId)) return undefined;
  const [purchase] = await getDb()
    .select()
    .from(purchases)
    .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, viewer.id)));
  return purchase;
}

/** The confirmation page; another customer's purchase does not exist. */
export async function withdrawalPage(viewer: Viewer, purchaseId: string) {
  const purchase = await ownPurchase(viewer, purchaseId);
  if (!purchase) throw notFound();
  return {
    purchase: {
      id: purchase.id,
      serviceName: purchase.serviceName,
      price: purchase.price,
      completedAt: purchase.completedAt,
      withdrawalRequestedAt: purchase.withdrawalRequestedAt,
    },
    available: canWithdraw(purchase),
  };
}

/**
 * Records the withdrawal once, inside the period and before the service is fully performed,
 * and mails the customer an acknowledgement with the date and time, and the company inbox.
 */
export async function withdrawalAction(request: Request, viewer: Viewer, purchaseId: string) {
  if (!(await ownPurchase(viewer, purchaseId))) throw notFound();
  const parsed = checkForm(withdrawalSchema, await readFields(request));
  if (!parsed.ok) return refuse(parsed.errors);
  const receivedAt = new Date();
  try {
    const recorded = await getDb().transaction(async (tx) => {
      const [purchase] = await tx
        .select()
        .from(purchases)
        .where(eq(purchases.id, purchaseId))
        .for("update");
      if (!purchase || !canWithdraw(purchase, receivedAt)) return false;
      // The contract ends (art. 106): the purchase is 'withdrawn', its delivery closes, and its
      // payment leaves the customer's totals, revenue and AOV (decision 050).
      await tx
        .update(purchases)
        .set({ status: "withdrawn", withdrawalRequestedAt: receivedAt, updatedAt: receivedAt })
        .where(eq(purchases.id, purchaseId));
      await paymentLeavesTotals(tx, purchaseId, "withdrawn", receivedAt);
      await tx.insert(userActivityLog).values({
        userId: viewer.id,
        activityType: "withdrawal_requested",
        description: `Desistimiento del contrato: ${purchase.serviceName}`,
        metadata: { purchaseId },
      });
      const [payment] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(eq(payments.purchaseId, purchaseId));
      await enqueueMails(tx, [
        withdrawalAcknowledgement(purchase, viewer.email, receivedAt, mailContext()),
        withdrawalNotice(
          purchase,
          viewer.email,
          getConfig().contactInbox,
          receivedAt,
          payment?.id,
          mailContext(),
        ),
      ]);
      return true;
    });
    if (!recorded) return refuse("withdrawalNotAvailable", 409);
  } catch (error) {
    getLogger().error({ err: error, purchaseId }, "recording a withdrawal failed");
    return refuse("saveFailed", 503);
  }
  getMailWorker().wake();
  return redirectWithToast("/mi-cuenta?tab=compras", {
    kind: "success",
    ...afterSaleMessages.withdrawalRecorded,
  });
}
