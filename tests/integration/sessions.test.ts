import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getViewer, requireStaff, viewerRoleOf } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { sessions, userRoles } from "~/platform/db/schema";
import { takeToast } from "~/platform/http/toast.server";
import { enrolTotp, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

const requestWith = (cookie: string, headers: Record<string, string> = {}, path = "/") =>
  new Request(`${getConfig().siteUrl}${path}`, { headers: { Cookie: cookie, ...headers } });

const viewerOf = async (cookie: string) => (await getViewer(requestWith(cookie))).viewer;

const sessionsOf = (userId: string) =>
  database.db.select().from(sessions).where(eq(sessions.userId, userId));

/**
 * Moves the session's creation back in time; its sliding expiry is left as a fresh one, and it
 * was last used just now (the 30 idle minutes of staff sessions are session-activity.test.ts's).
 */
async function ageSession(userId: string, ageMs: number) {
  await database.db
    .update(sessions)
    .set({ createdAt: new Date(Date.now() - ageMs), lastSeenAt: new Date() })
    .where(eq(sessions.userId, userId));
}

async function signedInAdmin(email: string) {
  const signedIn = await signedInCustomer(email, { clientAddress: "192.0.2.40" });
  await database.db.insert(userRoles).values({ userId: signedIn.userId, role: "admin" });
  return signedIn;
}

describe("the absolute session lifetime", () => {
  it("keeps a customer's session, however old its start, for 30 days", async () => {
    const { cookie, userId } = await signedInCustomer("veterana@example.com");
    await ageSession(userId, 29 * DAY_MS);
    expect((await viewerOf(cookie))?.id).toBe(userId);
  });

  it("ends a customer's session 30 days after it was created, even while in use", async () => {
    const { cookie, userId } = await signedInCustomer("caducada@example.com");
    await ageSession(userId, 30 * DAY_MS + 60_000);
    const { viewer, headers } = await getViewer(requestWith(cookie));
    expect(viewer).toBeNull();
    expect(await sessionsOf(userId)).toHaveLength(0);
    // The browser is told to drop the cookie, not just refused.
    expect(headers.getSetCookie().join("\n")).toMatch(/session_token=;/);
    expect(await viewerOf(cookie)).toBeNull();
  });

  it("ends an administrator's session 12 hours after it was created", async () => {
    const { cookie, userId } = await signedInAdmin("jefa@example.com");
    await ageSession(userId, 11 * HOUR_MS);
    expect((await viewerOf(cookie))?.id).toBe(userId);
    await ageSession(userId, 12 * HOUR_MS + 60_000);
    expect(await viewerOf(cookie)).toBeNull();
    expect(await sessionsOf(userId)).toHaveLength(0);
  });

  it.each(["support", "finance"] as const)(
    "ends a %s staff member's session 12 hours after it was created too (any staff role)",
    async (role) => {
      const { cookie, userId } = await signedInCustomer(`equipo-${role}@example.com`, {
        clientAddress: "192.0.2.43",
      });
      await database.db.insert(userRoles).values({ userId, role });
      await ageSession(userId, 12 * HOUR_MS + 60_000);
      expect(await viewerOf(cookie)).toBeNull();
    },
  );

  it("keeps a customer's session past 12 hours: the short lifetime is the staff's", async () => {
    const { cookie, userId } = await signedInCustomer("diaria@example.com");
    await ageSession(userId, 13 * HOUR_MS);
    expect((await viewerOf(cookie))?.id).toBe(userId);
  });
});

describe("the admin guard", () => {
  /** What requireStaff threw for a customer, and whether the session survived it. */
  async function customerOpensAdmin(email: string, fetchSite: string | undefined) {
    const { cookie } = await signedInCustomer(email, { clientAddress: "192.0.2.41" });
    const request = requestWith(cookie, fetchSite ? { "Sec-Fetch-Site": fetchSite } : {}, "/admin");
    let answer: Response | undefined;
    try {
      await requireStaff({ request, context: { clientAddress: "192.0.2.41" } });
    } catch (thrown) {
      answer = thrown as Response;
    }
    if (!answer) throw new Error("a customer passed the admin guard");
    const toast = await takeToast(requestWith(answer.headers.getSetCookie().join("; ")));
    return {
      location: answer.headers.get("Location"),
      toast: toast.toast?.title,
      signedIn: Boolean(await viewerOf(cookie)),
    };
  }

  it.each([
    ["missing", undefined],
    ["cross-site", "cross-site"],
    ["same-site", "same-site"],
    ["none (a typed address, or a link opened from another application)", "none"],
  ])(
    "turns a customer away with 'Acceso denegado' but keeps the session when Sec-Fetch-Site is %s",
    async (_label, fetchSite) => {
      const outcome = await customerOpensAdmin(
        `visita-${fetchSite ?? "sin"}@example.com`,
        fetchSite,
      );
      expect(outcome).toEqual({ location: "/login", toast: "Acceso denegado", signedIn: true });
    },
  );

  it("signs the customer out when the request is a same-origin navigation (the spec's rule)", async () => {
    const outcome = await customerOpensAdmin("curioso@example.com", "same-origin");
    expect(outcome).toEqual({ location: "/login", toast: "Acceso denegado", signedIn: false });
  });

  it("lets an administrator with a second factor through", async () => {
    const admin = await signedInAdmin("admin-guard@example.com");
    const { userId } = admin;
    const { cookie } = await enrolTotp(admin.cookie, "contraseña-de-prueba");
    const staff = await requireStaff({
      request: requestWith(cookie, { "Sec-Fetch-Site": "same-origin" }, "/admin"),
      context: { clientAddress: "192.0.2.42" },
    });
    expect(staff).toMatchObject({ id: userId, role: "admin", clientAddress: "192.0.2.42" });
  });
});

describe("one read of who is asking per page request", () => {
  it("gives a page's loaders one read of the session and the role; an action reads afresh", async () => {
    const { cookie, userId } = await signedInCustomer("una-lectura@example.com");
    const page = requestWith(cookie);
    const first = await getViewer(page);
    expect(first.viewer?.id).toBe(userId);
    expect(await viewerRoleOf(page, first.viewer!)).toBeNull();
    // Between the root's read and the route's, the account becomes staff and loses its session:
    // the same page request keeps what it read, as its loaders ran at once.
    await database.db.insert(userRoles).values({ userId, role: "admin" });
    await database.db.delete(sessions).where(eq(sessions.userId, userId));
    expect((await getViewer(page)).viewer?.id).toBe(userId);
    expect(await viewerRoleOf(page, first.viewer!)).toBeNull();
    // Another request, or a post to the same page, reads the database again.
    expect((await getViewer(requestWith(cookie))).viewer).toBeNull();
    const post = new Request(page.url, { method: "POST", headers: { Cookie: cookie } });
    expect((await getViewer(post)).viewer).toBeNull();
    expect(await viewerRoleOf(post, first.viewer!)).toBe("admin");
  });
});
