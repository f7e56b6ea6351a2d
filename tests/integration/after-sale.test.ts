import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Staff, Viewer } from "~/features/identity/session.server";
import {
  staffPaymentAction,
  withdrawalAction,
  withdrawalPage,
} from "~/features/payments/after-sale.server";
import { resetConfigForTests } from "~/platform/config.server";
import type { FormRefusal } from "~/platform/forms/form-answer";
import {
  invoices,
  mailOutbox,
  paymentDayTotals,
  payments,
  purchases,
  userActivityLog,
} from "~/platform/db/schema";
import { formPost, signedInCustomer } from "../support/customer-session";
import { insertPurchase, purchaseById } from "../support/purchases";
import { chargeRefundedEvent, checkoutSessionEvent } from "../support/stripe-events";
import { StripeStandIn } from "../support/stripe-stand-in";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { activityOfType, latestMailOfKind } from "../support/outbox-records";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #16 after the payment: the staff's refund (through Stripe's refund API, applied once by
 * its event with a corrective invoice and the revenue reduced), the delivery status the staff set,
 * and the customer's withdrawal inside its 14 days.
 */
const database = setupTestDatabase();
const standIn = new StripeStandIn();
const WEBHOOK_SECRET = "whsec_test_after_sale";
const saved = { ...process.env };
let customer: { userId: string; viewer: Viewer; cookie: string };
const staff = {
  id: "staff-user",
  email: "staff@example.com",
  role: "finance",
  clientAddress: "192.0.2.60",
  userAgent: "vitest",
} as Staff;

/** The staff member's own session: a refund asks for a recent one (decision 063). */
let staffCookie = "";

beforeAll(async () => {
  staffCookie = (await signedInCustomer("finanzas-posventa@example.com")).cookie;
  await standIn.startForSite({
    STRIPE_SECRET_KEY: "sk_test_after_sale",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  resetConfigForTests();
  const made = await signedInCustomer("posventa@example.com");
  customer = {
    ...made,
    viewer: { id: made.userId, email: "posventa@example.com", emailVerified: true } as Viewer,
  };
});

afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  await standIn.stop();
});

const deliver = (event: object) => deliverStripeEvent(database.db, event);

/** A purchase of the customer, paid through the webhook; its payment id. */
async function paidPurchase(completedDaysAgo = 0) {
  const purchase = await insertPurchase(database.db, {
    userId: customer.userId,
    checkoutSessionId: `cs_test_${randomUUID()}`,
    immediateStartConsentAt: new Date(),
  });
  const paymentIntent = `pi_${randomUUID()}`;
  await deliver(
    checkoutSessionEvent("checkout.session.completed", purchase, {
      email: "posventa@example.com",
      paymentIntent,
    }),
  );
  if (completedDaysAgo > 0)
    await database.db
      .update(purchases)
      .set({ completedAt: sql`now() - make_interval(days => ${completedDaysAgo})` })
      .where(eq(purchases.id, purchase.id));
  const [payment] = await database.db
    .select()
    .from(payments)
    .where(eq(payments.purchaseId, purchase.id));
  return { purchaseId: purchase.id, paymentId: payment!.id, paymentIntent };
}

/** What an action answered: its status and the refusal's messages, or where it redirected. */
async function answerOf(run: () => Promise<unknown>) {
  try {
    const answer = await run();
    if (answer instanceof Response)
      return { status: answer.status, location: answer.headers.get("Location") };
    const value = answer as { data: FormRefusal; init: { status?: number } | null };
    return { status: value.init?.status ?? 200, errors: value.data.errors.map(({ code }) => code) };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status };
    throw thrown;
  }
}

const staffPost = (paymentId: string, fields: Record<string, string>) =>
  answerOf(() =>
    staffPaymentAction(
      formPost(`/admin/pagos/${paymentId}`, fields, staffCookie),
      staff,
      paymentId,
    ),
  );

const completedRevenue = async () =>
  Number(
    (
      await database.db
        .select({ amount: sql<string>`coalesce(sum(${paymentDayTotals.amount}), 0)` })
        .from(paymentDayTotals)
        .where(eq(paymentDayTotals.status, "completed"))
    )[0]!.amount,
  );

describe("a staff refund", () => {
  it("asks Stripe once per purchase and, applied by its event twice delivered, refunds once with a corrective invoice quoting the reason", async () => {
    const sale = await paidPurchase();
    const revenueBefore = await completedRevenue();

    expect(
      await staffPost(sale.paymentId, { intent: "refund", reason: "", confirm: "yes" }),
    ).toEqual({ status: 400, errors: ["refundReasonInvalid"] });
    expect(
      await staffPost(sale.paymentId, { intent: "refund", reason: "Servicio no prestado" }),
    ).toEqual({ status: 400, errors: ["refundConfirmRequired"] });
    expect(standIn.requests.filter((request) => request.path === "/v1/refunds")).toHaveLength(0);

    const refund = { intent: "refund", reason: "Servicio no prestado", confirm: "yes" };
    for (let click = 0; click < 2; click++)
      expect(await staffPost(sale.paymentId, refund)).toEqual({
        status: 302,
        location: `/admin/pagos/${sale.paymentId}`,
      });
    const asked = standIn.requests.filter((request) => request.path === "/v1/refunds");
    expect(asked).toHaveLength(2);
    for (const request of asked) {
      expect(request.form.get("payment_intent")).toBe(sale.paymentIntent);
      expect(request.form.get("metadata[purchase_id]")).toBe(sale.purchaseId);
      // The same key both times: Stripe makes the second request the first refund.
      expect(request.headers["idempotency-key"]).toBe(`refund-${sale.purchaseId}`);
    }

    const charge = {
      chargeId: `ch_${randomUUID()}`,
      paymentIntent: sale.paymentIntent,
      amount: 44_900,
    };
    for (let delivery = 0; delivery < 2; delivery++)
      expect(await deliver(chargeRefundedEvent(charge))).toEqual({ status: 200, body: "ok" });

    const purchase = await purchaseById(database.db, sale.purchaseId);
    expect(purchase).toMatchObject({
      status: "refunded",
      refundReason: "Servicio no prestado",
      refundRequestedBy: staff.id,
    });
    const corrective = await database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.purchaseId, sale.purchaseId), eq(invoices.series, "R")));
    expect(corrective).toHaveLength(1);
    expect(corrective[0]).toMatchObject({
      correctionReason: "Servicio no prestado",
      totalAmount: -44_900,
    });
    expect(await completedRevenue()).toBe(revenueBefore - 44_900);
    const notices = await database.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.kind, "payment-refund"),
          eq(mailOutbox.recipient, "posventa@example.com"),
        ),
      );
    expect(notices).toHaveLength(1);
    expect(notices[0]?.attachments?.[0]?.filename).toBe(`factura-${corrective[0]!.number}.pdf`);

    // Refunded: nothing more to refund, and Stripe is not asked again.
    expect(await staffPost(sale.paymentId, refund)).toEqual({
      status: 409,
      errors: ["notRefundable"],
    });
    expect(standIn.requests.filter((request) => request.path === "/v1/refunds")).toHaveLength(2);
  });

  it("answers 404 for a payment that does not exist", async () => {
    for (const id of [randomUUID(), "no-es-un-id"])
      expect((await staffPost(id, { intent: "refund" })).status).toBe(404);
  });
});

describe("the delivery", () => {
  it("moves a paid purchase on, logs it and mails the customer; an unpaid one has none", async () => {
    const sale = await paidPurchase();
    expect(
      await staffPost(sale.paymentId, { intent: "delivery", deliveryStatus: "terminado" }),
    ).toEqual({ status: 400, errors: ["deliveryInvalid"] });
    expect(
      await staffPost(sale.paymentId, {
        intent: "delivery",
        deliveryStatus: "in_progress",
        note: "Empezamos la auditoría el lunes.",
      }),
    ).toMatchObject({ status: 302 });
    const purchase = await purchaseById(database.db, sale.purchaseId);
    expect(purchase).toMatchObject({
      deliveryStatus: "in_progress",
      deliveryNote: "Empezamos la auditoría el lunes.",
    });
    const mail = await latestMailOfKind(database.db, "delivery-update");
    expect(mail).toMatchObject({
      recipient: "posventa@example.com",
      subject: "Tu compra Ciberseguridad: en curso - Vértice Digital",
    });
    expect(mail?.text).toContain("Empezamos la auditoría el lunes.");
    // The staff read the customer's activity: the state in Spanish, as on the payment's page.
    const [logged] = await activityOfType(database.db, "delivery_updated");
    expect(logged?.description).toBe("Entrega de Ciberseguridad: En curso");

    const unpaid = await insertPurchase(database.db, { userId: customer.userId, status: "failed" });
    const [payment] = await database.db
      .insert(payments)
      .values({
        purchaseId: unpaid.id,
        customerEmail: "posventa@example.com",
        serviceName: "Ciberseguridad",
        amount: 44_900,
        status: "failed",
      })
      .returning();
    expect(
      await staffPost(payment!.id, { intent: "delivery", deliveryStatus: "delivered" }),
    ).toEqual({ status: 409, errors: ["deliveryNotPaid"] });
  });
});

describe("migration 0017", () => {
  it("names the delivery state of the activity entries written before it, once", async () => {
    const written = ["pending", "in_progress", "delivered", "shipped"].map((state) => ({
      userId: customer.userId,
      activityType: "delivery_updated",
      description: `Entrega de Desarrollo Web: ${state}`,
      metadata: { purchaseId: "0", deliveryStatus: state },
    }));
    const rows = await database.db
      .insert(userActivityLog)
      .values([
        ...written,
        // Written after the fix, and another kind of entry: both left as they are.
        { ...written[1]!, description: "Entrega de Desarrollo Web: En curso" },
        { ...written[1]!, activityType: "profile_updated", description: "Perfil: in_progress" },
      ])
      .returning({ id: userActivityLog.id });
    const migration = readFileSync("drizzle/0017_delivery_activity_labels.sql", "utf8");
    for (let run = 0; run < 2; run++) await database.db.execute(sql.raw(migration));
    const ids = rows.map((row) => row.id);
    const after = await database.db
      .select({ id: userActivityLog.id, description: userActivityLog.description })
      .from(userActivityLog)
      .where(inArray(userActivityLog.id, ids));
    const byId = new Map(after.map((row) => [row.id, row.description]));
    expect(ids.map((id) => byId.get(id))).toEqual([
      "Entrega de Desarrollo Web: Pendiente de inicio",
      "Entrega de Desarrollo Web: En curso",
      "Entrega de Desarrollo Web: Entregado",
      // No such state: left for a person to read rather than guessed.
      "Entrega de Desarrollo Web: shipped",
      "Entrega de Desarrollo Web: En curso",
      "Perfil: in_progress",
    ]);
  });
});

describe("the withdrawal", () => {
  const withdraw = (purchaseId: string, fields: Record<string, string>, viewer = customer.viewer) =>
    answerOf(() =>
      withdrawalAction(
        formPost(`/mi-cuenta/compras/${purchaseId}/desistir`, fields),
        viewer,
        purchaseId,
      ),
    );

  it("is recorded once inside 14 days, acknowledged by mail with date and time, and told to staff", async () => {
    const sale = await paidPurchase(13);
    expect((await withdrawalPage(customer.viewer, sale.purchaseId)).available).toBe(true);
    expect(await withdraw(sale.purchaseId, {})).toEqual({
      status: 400,
      errors: ["withdrawalConfirmRequired"],
    });
    expect(await withdraw(sale.purchaseId, { confirm: "yes" })).toEqual({
      status: 302,
      location: "/mi-cuenta?tab=compras",
    });
    expect(await withdraw(sale.purchaseId, { confirm: "yes" })).toEqual({
      status: 409,
      errors: ["withdrawalNotAvailable"],
    });
    const purchase = await purchaseById(database.db, sale.purchaseId);
    expect(purchase?.withdrawalRequestedAt).toBeInstanceOf(Date);
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.kind} in ('withdrawal-acknowledgement', 'withdrawal-notice')`);
    expect(mails.map((mail) => mail.kind).sort()).toEqual([
      "withdrawal-acknowledgement",
      "withdrawal-notice",
    ]);
    const acknowledgement = mails.find((mail) => mail.kind === "withdrawal-acknowledgement")!;
    expect(acknowledgement.recipient).toBe("posventa@example.com");
    expect(acknowledgement.text).toMatch(
      /Recibido el: \d{1,2} de \w+ de \d{4} a las \d{1,2}:\d{2}/,
    );
    const notice = mails.find((mail) => mail.kind === "withdrawal-notice")!;
    expect(notice.text).toContain(`/admin/pagos/${sale.paymentId}`);
    const logged = await activityOfType(database.db, "withdrawal_requested");
    expect(logged).toHaveLength(1);
  });

  it("is not offered after 14 days, nor once the service is delivered, nor to another customer", async () => {
    const late = await paidPurchase(15);
    expect((await withdrawalPage(customer.viewer, late.purchaseId)).available).toBe(false);
    expect(await withdraw(late.purchaseId, { confirm: "yes" })).toEqual({
      status: 409,
      errors: ["withdrawalNotAvailable"],
    });

    const delivered = await paidPurchase(1);
    await staffPost(delivered.paymentId, { intent: "delivery", deliveryStatus: "delivered" });
    expect(await withdraw(delivered.purchaseId, { confirm: "yes" })).toMatchObject({
      status: 409,
    });

    const fresh = await paidPurchase();
    const stranger = await signedInCustomer("ajeno-posventa@example.com");
    const other = { id: stranger.userId, email: "ajeno-posventa@example.com" } as Viewer;
    expect(await withdraw(fresh.purchaseId, { confirm: "yes" }, other)).toEqual({ status: 404 });
    const untouched = await purchaseById(database.db, fresh.purchaseId);
    expect(untouched?.withdrawalRequestedAt).toBeNull();
  });
});
