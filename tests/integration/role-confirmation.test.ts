import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { roleChangeQuestion, usersListHref } from "~/features/admin/role-change";
import { getConfig } from "~/platform/config.server";
import { profiles, staffAuditLog, userRoles } from "~/platform/db/schema";
import { action as panelAction } from "~/routes/admin";
import { loader as confirmationLoader } from "~/routes/admin-usuario-rol";
import { enrolTotp, formPost, signedInAdmin, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

/**
 * A role change is confirmed before it is made (issue 28 item 4, decision 054): the dialog and,
 * without JavaScript, the confirmation page name the person and the role; the panel's action
 * still refuses a change that does not carry the confirmation.
 */
const database = setupTestDatabase();

let admin: { cookie: string; userId: string };
let supportCookie: string;
let ana: { cookie: string; userId: string };
let unverified: { cookie: string; userId: string };
const context = { clientAddress: "192.0.2.60" } as never;

beforeAll(async () => {
  admin = await signedInAdmin("jefa-roles@example.com");
  ana = await signedInCustomer("ana.lopez@example.com", { clientAddress: "192.0.2.61" });
  await database.db
    .update(profiles)
    .set({ fullName: "Ana López" })
    .where(eq(profiles.id, ana.userId));
  unverified = await signedInCustomer("sin-verificar-rol@example.com", {
    verified: false,
    clientAddress: "192.0.2.62",
  });
  const support = await signedInCustomer("soporte-roles@example.com", {
    clientAddress: "192.0.2.63",
  });
  await database.db.insert(userRoles).values({ userId: support.userId, role: "support" });
  supportCookie = (await enrolTotp(support.cookie, "contraseña-de-prueba")).cookie;
});

/** What a route answers, thrown or returned, as a Response or the loader's data. */
async function settle<T>(run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const confirmation = (userId: string, query: string, cookie = admin.cookie) =>
  settle(() =>
    confirmationLoader({
      request: new Request(`${getConfig().siteUrl}/admin/usuarios/${userId}/rol?${query}`, {
        headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
      }),
      params: { userId },
      context,
    } as never),
  );

const post = (fields: Record<string, string>, path = "/admin?tab=usuarios") =>
  settle(() =>
    panelAction({ request: formPost(path, fields, admin.cookie), params: {}, context } as never),
  );

const statusOf = (answer: unknown) =>
  answer instanceof Response
    ? answer.status
    : ((answer as { init?: ResponseInit }).init?.status ?? 200);

const roleOf = async (userId: string) =>
  (await database.db.select().from(userRoles).where(eq(userRoles.userId, userId)))[0]?.role ?? null;

describe("the question", () => {
  it("names the person and the role in words, and what the role may do", () => {
    const person = { email: "ana@example.com", fullName: "Ana López" };
    expect(roleChangeQuestion(person, null, "admin")).toMatchObject({
      title: "¿Hacer a Ana López (ana@example.com) Administrador?",
      description: expect.stringMatching(/^Podrá .*cambiar los roles/),
      confirmLabel: "Hacer Administrador",
      unchanged: false,
    });
    expect(roleChangeQuestion(person, null, "support").description).toMatch(/^Podrá atender/);
    expect(roleChangeQuestion(person, "finance", null)).toMatchObject({
      title: "¿Quitar a Ana López (ana@example.com) el rol Finanzas?",
      confirmLabel: "Quitar el rol",
    });
    // Without a name, the e-mail alone; the same role again has nothing to confirm.
    expect(roleChangeQuestion({ ...person, fullName: null }, null, "finance").title).toBe(
      "¿Hacer a ana@example.com Finanzas?",
    );
    expect(roleChangeQuestion(person, "support", "support").unchanged).toBe(true);
  });

  it("goes back only to the Usuarios list, with its search", () => {
    expect(usersListHref("?tab=usuarios&q=ana&pagina=2")).toBe(
      "/admin?tab=usuarios&q=ana&pagina=2",
    );
    expect(usersListHref("?tab=pagos&q=x&volver=//evil.example")).toBe("/admin?tab=usuarios&q=x");
    expect(usersListHref("//evil.example/")).toBe("/admin?tab=usuarios");
    expect(usersListHref(null)).toBe("/admin?tab=usuarios");
  });
});

describe("the confirmation page (without JavaScript)", () => {
  it("names the person and the role, and posts back to the list it came from", async () => {
    const page = await confirmation(ana.userId, "rol=admin&volver=%3Ftab%3Dusuarios%26q%3Dana");
    expect(page).not.toBeInstanceOf(Response);
    expect(page).toMatchObject({
      userId: ana.userId,
      role: "admin",
      from: null,
      back: "/admin?tab=usuarios&q=ana",
      refusal: null,
      question: { title: "¿Hacer a Ana López (ana.lopez@example.com) Administrador?" },
    });
    // Opening it changes nothing.
    expect(await roleOf(ana.userId)).toBeNull();
  });

  it("says beforehand what would be refused: one's own role, an unverified account", async () => {
    const own = await confirmation(admin.userId, "rol=cliente");
    expect(own).toMatchObject({ refusal: { title: "No puedes quitarte tu propio rol" } });
    const notVerified = await confirmation(unverified.userId, "rol=support");
    expect(notVerified).toMatchObject({
      refusal: { title: "La cuenta no tiene el email verificado" },
    });
  });

  it("is 404 for an unknown account or role, and 403 for staff who may not change roles", async () => {
    expect(statusOf(await confirmation("no-existe", "rol=admin"))).toBe(404);
    expect(statusOf(await confirmation(ana.userId, "rol=superadmin"))).toBe(404);
    expect(statusOf(await confirmation(ana.userId, ""))).toBe(404);
    expect(statusOf(await confirmation(ana.userId, "rol=admin", supportCookie))).toBe(403);
    const visitor = await confirmation(ana.userId, "rol=admin", "");
    expect(statusOf(visitor)).toBe(302);
  });
});

describe("the change itself", () => {
  it("is refused without its explicit confirmation, and nothing is written", async () => {
    const before = await database.db.select().from(staffAuditLog);
    for (const confirm of [undefined, "", "no", "on"]) {
      const fields: Record<string, string> = {
        intent: "set-role",
        userId: ana.userId,
        role: "admin",
      };
      if (confirm !== undefined) fields.confirm = confirm;
      const answer = await post(fields);
      expect(statusOf(answer), `confirm=${confirm}`).toBe(400);
    }
    expect(await roleOf(ana.userId)).toBeNull();
    expect(await database.db.select().from(staffAuditLog)).toHaveLength(before.length);
  });

  it("is made with it, as the page and the dialog post it, and written to the audit log", async () => {
    const answer = await post(
      { intent: "set-role", userId: ana.userId, role: "admin", confirm: "yes" },
      "/admin?tab=usuarios&q=ana",
    );
    expect(statusOf(answer)).toBe(302);
    expect((answer as Response).headers.get("Location")).toBe("/admin?tab=usuarios&q=ana");
    expect(await roleOf(ana.userId)).toBe("admin");
    const [entry] = await database.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.targetId, ana.userId));
    expect(entry).toMatchObject({
      action: "role.change",
      actorId: admin.userId,
      details: { from: "cliente", to: "admin", email: "ana.lopez@example.com" },
    });
    // Now the page says there is nothing to change, and offers only the way back.
    expect(await confirmation(ana.userId, "rol=admin")).toMatchObject({
      question: { unchanged: true },
    });
  });
});
