import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardFigures } from "~/features/admin/dashboard.server";
import { userStatsOf } from "~/features/customer-area/account-overview.server";
import type { Staff, Viewer } from "~/features/identity/session.server";
import {
  staffPaymentAction,
  staffPaymentPage,
  withdrawalAction,
} from "~/features/payments/after-sale.server";
import { paymentReceipt } from "~/features/payments/payment-receipt.server";
import { purchasesOf } from "~/features/payments/purchases.server";
import { resetConfigForTests } from "~/platform/config.server";
import { customers, payments, purchases } from "~/platform/db/schema";
import { formPost, signedInCustomer } from "../support/customer-session";
import { insertPurchase, purchaseById } from "../support/purchases";
import { chargeRefundedEvent, checkoutSessionEvent } from "../support/stripe-events";
import { StripeStandIn } from "../support/stripe-stand-in";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #28 item 1 and 2 (decision 050): a withdrawn or refunded purchase leaves 'Total gastado',
 * revenue and AOV exactly once, whatever order withdrawal and refund come in, and the totals the
 * triggers and the webhook keep stay equal to a recount; one timeline tells it; /pago-exitoso is
 * a receipt only for the customer whose order it is.
 */
const database = setupTestDatabase();
const standIn = new StripeStandIn();
const saved = { ...process.env };
const staff = {
  id: "staff-timeline",
  email: "finanzas@example.com",
  role: "finance",
  clientAddress: "192.0.2.61",
  userAgent: "vitest",
} as Staff;
type Customer = { userId: string; viewer: Viewer; email: string };
let buyer: Customer;
let other: Customer;

async function customer(email: string): Promise<Customer> {
  const made = await signedInCustomer(email);
  return {
    email,
    userId: made.userId,
    viewer: { id: made.userId, email, emailVerified: true } as Viewer,
  };
}

/** The staff member's own session: a refund asks for a recent one (decision 063). */
let staffCookie = "";

beforeAll(async () => {
  staffCookie = (await signedInCustomer("finanzas-linea@example.com")).cookie;
  await standIn.startForSite({
    STRIPE_SECRET_KEY: "sk_test_timeline",
    STRIPE_WEBHOOK_SECRET: "whsec_test_timeline",
  });
  resetConfigForTests();
  buyer = await customer("linea@example.com");
  other = await customer("otra-linea@example.com");
});

afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  await standIn.stop();
});

const deliver = (event: object) => deliverStripeEvent(database.db, event);

async function paidPurchase(who: Customer, amount = 44_900) {
  const purchase = await insertPurchase(database.db, {
    userId: who.userId,
    checkoutSessionId: `cs_test_${randomUUID()}`,
    immediateStartConsentAt: new Date(),
    price: amount,
  });
  const paymentIntent = `pi_${randomUUID()}`;
  await deliver(
    checkoutSessionEvent("checkout.session.completed", purchase, {
      email: who.email,
      paymentIntent,
    }),
  );
  const [payment] = await database.db
    .select()
    .from(payments)
    .where(eq(payments.purchaseId, purchase.id));
  return { purchaseId: purchase.id, paymentId: payment!.id, paymentIntent, amount };
}

const withdraw = (who: Customer, purchaseId: string) =>
  withdrawalAction(
    formPost(`/mi-cuenta/compras/${purchaseId}/desistir`, { confirm: "yes" }),
    who.viewer,
    purchaseId,
  );

async function staffRefund(sale: Awaited<ReturnType<typeof paidPurchase>>, reason: string) {
  const answer = (await staffPaymentAction(
    formPost(
      `/admin/pagos/${sale.paymentId}`,
      { intent: "refund", reason, confirm: "yes" },
      staffCookie,
    ),
    staff,
    sale.paymentId,
  )) as Response;
  expect(answer.status).toBe(302);
  await deliver(
    chargeRefundedEvent({
      chargeId: `ch_${randomUUID()}`,
      paymentIntent: sale.paymentIntent,
      amount: sale.amount,
    }),
  );
}

/** The rows of a raw query, on PGlite and on PostgreSQL alike. */
const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;

/** Every total kept (day totals by trigger, customers by the webhook) against a recount. */
async function totalsAgainstRecount() {
  const dayTotals = rowsOf(
    await database.db.execute(sql`
    (select (created_at at time zone 'Europe/Madrid')::date as day, status,
            count(*)::bigint as payments, sum(amount)::bigint as amount
       from payments group by 1, 2
     except select day, status, payments, amount from payment_day_totals)
    union all
    (select day, status, payments, amount from payment_day_totals where payments <> 0
     except select (created_at at time zone 'Europe/Madrid')::date, status, count(*)::bigint,
                   sum(amount)::bigint from payments group by 1, 2)`),
  );
  const customerTotals = rowsOf(
    await database.db.execute(sql`
    select c.email from customers c
      left join (select customer_email, count(*)::int as n, sum(amount)::int as cents
                   from payments where status = 'completed' group by customer_email) paid
        on paid.customer_email = c.email
     where c.total_orders <> coalesce(paid.n, 0) or c.total_spent <> coalesce(paid.cents, 0)`),
  );
  return { dayTotals, customerTotals };
}

const customerRow = async (email: string) =>
  (await database.db.select().from(customers).where(eq(customers.email, email)))[0]!;

describe("a withdrawal", () => {
  it("leaves 'Total gastado', revenue and AOV once, closes the delivery, and a later refund takes nothing twice", async () => {
    const kept = await paidPurchase(buyer, 79_900);
    const sale = await paidPurchase(buyer, 44_900);
    const before = {
      stats: await userStatsOf(buyer.userId),
      dashboard: await dashboardFigures(database.db),
      customer: await customerRow(buyer.email),
    };

    expect(((await withdraw(buyer, sale.purchaseId)) as Response).status).toBe(302);
    expect(await purchaseById(database.db, sale.purchaseId)).toMatchObject({ status: "withdrawn" });
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.id, sale.paymentId));
    expect(payment?.status).toBe("withdrawn");

    const after = {
      stats: await userStatsOf(buyer.userId),
      dashboard: await dashboardFigures(database.db),
      customer: await customerRow(buyer.email),
    };
    expect(after.stats.totalSpentCents).toBe(before.stats.totalSpentCents - 44_900);
    expect(after.stats.completedPurchases).toBe(before.stats.completedPurchases - 1);
    expect(after.dashboard.revenueCents).toBe(before.dashboard.revenueCents - 44_900);
    expect(after.dashboard.orders).toBe(before.dashboard.orders - 1);
    expect(after.dashboard.averageOrderCents).toBe(
      Math.round(after.dashboard.revenueCents / after.dashboard.orders),
    );
    expect(after.customer).toMatchObject({
      totalSpent: before.customer.totalSpent - 44_900,
      totalOrders: before.customer.totalOrders - 1,
    });
    expect(await totalsAgainstRecount()).toEqual({ dayTotals: [], customerTotals: [] });

    // The staff page: withdrawn, the refund owed by a date, delivery closed and refused.
    const page = await staffPaymentPage(sale.paymentId);
    expect(page.timeline).toMatchObject({
      label: "Desistido",
      deliveryOpen: false,
      refundOpen: true,
      countsInTotals: false,
    });
    expect(page.timeline.refundDueBy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const delivery = await staffPaymentAction(
      formPost(`/admin/pagos/${sale.paymentId}`, {
        intent: "delivery",
        deliveryStatus: "in_progress",
      }),
      staff,
      sale.paymentId,
    );
    expect((delivery as { init: { status: number } }).init.status).toBe(409);

    // The refund the withdrawal obliges: applied, and the totals lose nothing more.
    await staffRefund(sale, "Desistimiento del cliente.");
    expect(await purchaseById(database.db, sale.purchaseId)).toMatchObject({ status: "refunded" });
    expect(await customerRow(buyer.email)).toMatchObject({
      totalSpent: after.customer.totalSpent,
      totalOrders: after.customer.totalOrders,
    });
    expect((await dashboardFigures(database.db)).revenueCents).toBe(after.dashboard.revenueCents);
    expect(await totalsAgainstRecount()).toEqual({ dayTotals: [], customerTotals: [] });

    // The customer's Compras: the same facts, in the same order.
    const listed = await purchasesOf(buyer.userId, 10);
    const mine = listed.find((purchase) => purchase.id === sale.purchaseId)!;
    expect(mine.timeline.steps.map((step) => step.key)).toEqual(["paid", "withdrawn", "refunded"]);
    expect(mine.timeline.steps.at(-1)!.details).toEqual([
      "Motivo: Desistimiento del cliente",
      "Por nuestro equipo",
    ]);
    expect(mine.timeline.steps.at(-1)!.at).toBeInstanceOf(Date);
    expect(listed.find((purchase) => purchase.id === kept.purchaseId)!.timeline.label).toBe(
      "Completado",
    );
  });
});

describe("a refund", () => {
  it("tells when, why and who on the staff page, closes the delivery and leaves the totals", async () => {
    const sale = await paidPurchase(buyer);
    await staffPaymentAction(
      formPost(`/admin/pagos/${sale.paymentId}`, {
        intent: "delivery",
        deliveryStatus: "in_progress",
      }),
      staff,
      sale.paymentId,
    );
    const spent = (await customerRow(buyer.email)).totalSpent;
    await staffRefund(sale, "Servicio duplicado.");

    const page = await staffPaymentPage(sale.paymentId);
    expect(page.timeline).toMatchObject({ deliveryOpen: false, refundOpen: false });
    const refund = page.timeline.steps.at(-1)!;
    expect(refund.key).toBe("refunded");
    expect(refund.at).toBeInstanceOf(Date);
    expect(refund.details).toEqual(["Motivo: Servicio duplicado", "Por finanzas@example.com"]);
    expect(page.timeline.steps.map((step) => step.key)).toEqual([
      "paid",
      "in_progress",
      "refunded",
    ]);
    expect((await customerRow(buyer.email)).totalSpent).toBe(spent - 44_900);
    expect(await totalsAgainstRecount()).toEqual({ dayTotals: [], customerTotals: [] });
  });

  it("offers a failed payment again, through the service's purchase dialog", async () => {
    await insertPurchase(database.db, { userId: other.userId, status: "failed" });
    const [failed] = await purchasesOf(other.userId, 10);
    expect(failed?.timeline.retry).toBe(true);
    expect(failed?.retryPath).toBe("/ciberseguridad?comprar=ciberseguridad#ciberseguridad");
  });
});

describe("the receipt on /pago-exitoso", () => {
  const url = (service: string) =>
    new URL(`http://localhost/pago-exitoso?service=${encodeURIComponent(service)}`);

  it("is the buyer's own: confirming while pending, then amount, reference and invoice", async () => {
    const shopper = await customer(`recibo-${randomUUID()}@example.com`);
    const pending = await insertPurchase(database.db, {
      userId: shopper.userId,
      serviceId: 6,
      serviceName: "Desarrollo Web",
      price: 79_900,
      checkoutSessionId: `cs_test_${randomUUID()}`,
    });
    expect(await paymentReceipt(shopper.viewer, url("Desarrollo Web"))).toEqual({
      state: "confirming",
      serviceName: "Desarrollo Web",
    });
    await deliver(
      checkoutSessionEvent("checkout.session.completed", pending, {
        email: shopper.email,
        paymentIntent: `pi_${randomUUID()}`,
      }),
    );
    const receipt = await paymentReceipt(shopper.viewer, url("Desarrollo Web"));
    expect(receipt).toMatchObject({
      state: "paid",
      serviceName: "Desarrollo Web",
      amountCents: 79_900,
      reference: pending.id,
      invoice: { number: expect.stringMatching(/^F\d{4}-\d{6}$/) },
    });

    // Nobody else sees it: another customer, an anonymous visitor, another service's name.
    expect(await paymentReceipt(other.viewer, url("Desarrollo Web"))).toBeNull();
    expect(await paymentReceipt(null, url("Desarrollo Web"))).toBeNull();
    expect(await paymentReceipt(shopper.viewer, url("Ciberseguridad"))).toBeNull();
    expect(
      await paymentReceipt(shopper.viewer, new URL("http://localhost/pago-exitoso")),
    ).toBeNull();
  });
});

describe("migration 0015", () => {
  it("moves a purchase withdrawn before it out of the totals, once", async () => {
    const legacy = await paidPurchase(other, 19_900);
    // As the old code left it: completed, with the withdrawal recorded.
    await database.db
      .update(purchases)
      .set({ withdrawalRequestedAt: new Date() })
      .where(eq(purchases.id, legacy.purchaseId));
    const spent = (await customerRow(other.email)).totalSpent;
    const migration = readFileSync("drizzle/0015_withdrawn_purchases.sql", "utf8");
    for (let run = 0; run < 2; run++) await database.db.execute(sql.raw(migration));
    expect(await purchaseById(database.db, legacy.purchaseId)).toMatchObject({
      status: "withdrawn",
    });
    expect((await customerRow(other.email)).totalSpent).toBe(spent - 19_900);
    expect(await totalsAgainstRecount()).toEqual({ dayTotals: [], customerTotals: [] });
  });
});
