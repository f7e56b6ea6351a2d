import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPaymentProvider } from "~/features/payments/providers.server";
import { getConfig, resetConfigForTests } from "~/platform/config.server";
import { purchases } from "~/platform/db/schema";
import { action as simulatedAction, loader as simulatedLoader } from "~/routes/pago-simulado";
import { loader as testPagesLoader } from "~/routes/test-pagos";
import { formPost, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();
const saved = { ...process.env };
const SESSION_ID = "cs_sim_produccion";
let cookie = "";

/** The status a loader or action answered or threw; a value that is no Response is a 200. */
async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    const answer = await run();
    return answer instanceof Response ? answer.status : 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

const get = (path: string, withCookie = cookie) =>
  new Request(`${getConfig().siteUrl}${path}`, { headers: { Cookie: withCookie } });

type Args<T extends (...args: never[]) => unknown> = Parameters<T>[0];

const openTestPage = (request: Request) =>
  statusOf(() => testPagesLoader({ request } as unknown as Args<typeof testPagesLoader>));
const openSimulated = (request: Request) =>
  statusOf(() =>
    simulatedLoader({ request, params: { sessionId: SESSION_ID } } as unknown as Args<
      typeof simulatedLoader
    >),
  );
const paySimulated = (withCookie: string) =>
  statusOf(() =>
    simulatedAction({
      request: formPost(`/pago-simulado/${SESSION_ID}`, { outcome: "pay" }, withCookie),
      params: { sessionId: SESSION_ID },
    } as unknown as Args<typeof simulatedAction>),
  );

beforeAll(async () => {
  // A customer with a simulated purchase, made while the site ran locally.
  const customer = await signedInCustomer("en-produccion@example.com");
  cookie = customer.cookie;
  await database.db.insert(purchases).values({
    userId: customer.userId,
    serviceId: 4,
    serviceName: "Ciberseguridad",
    price: 44_900,
    provider: "simulated",
    checkoutSessionId: SESSION_ID,
  });
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

describe("locally", () => {
  it("/test-pagos and the simulated checkout are there", async () => {
    expect(await openTestPage(get("/test-pagos"))).toBe(200);
    expect(await openTestPage(get("/test-pagos", ""))).toBe(200);
    expect(await openSimulated(get(`/pago-simulado/${SESSION_ID}`))).toBe(200);
    expect(getPaymentProvider().name).toBe("simulated");
  });
});

describe("in production", () => {
  beforeAll(() => {
    Object.assign(process.env, {
      NODE_ENV: "production",
      AUTH_SECRET: "s".repeat(40),
      SITE_URL: "https://www.example.es",
      SMTP_URL: "smtps://user:pass@smtp.example.es:465",
      STRIPE_SECRET_KEY: "sk_live_produccion",
      STRIPE_WEBHOOK_SECRET: "whsec_produccion",
      COMPANY_TAX_ID: "B12345674",
      // Billing records are not what these tests are about (verifactu tests start with one).
      VERIFACTU: "off",
      // The tests' environment has the proof of work off (vitest.config.ts).
      HUMAN_CHECK_OFF_IN_PRODUCTION: "1",
    });
    resetConfigForTests();
  });

  it("/test-pagos answers 404 to everyone", async () => {
    expect(await openTestPage(get("/test-pagos"))).toBe(404);
    expect(await openTestPage(get("/test-pagos", ""))).toBe(404);
  });

  it("the simulated checkout answers 404 to everyone, even for a simulated purchase of their own", async () => {
    expect(await openSimulated(get(`/pago-simulado/${SESSION_ID}`))).toBe(404);
    expect(await openSimulated(get(`/pago-simulado/${SESSION_ID}`, ""))).toBe(404);
    expect(await paySimulated(cookie)).toBe(404);
    expect(await paySimulated("")).toBe(404);
  });

  it("never chooses the simulated provider, even if the configuration lost its Stripe key", () => {
    expect(getPaymentProvider().name).toBe("stripe");
    const config = getConfig();
    expect(() =>
      getPaymentProvider({ ...config, stripe: { ...config.stripe, secretKey: undefined } }),
    ).toThrowError(/STRIPE_SECRET_KEY/);
  });
});
