import { and, eq, inArray, notInArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  adminSignIn,
  customerSignIn,
  requestPasswordReset,
  resetPassword,
  signOut,
  signUp,
} from "~/features/accounts/account-actions.server";
import { adminAction } from "~/features/admin/admin-actions.server";
import { staffPanel } from "~/features/admin/admin-panel.server";
import { staffDesk } from "~/features/accounts/staff-desk.server";
import { verifactuAction } from "~/features/verifactu/staff-page.server";
import { managePasskey, passkeyRegistration } from "~/features/accounts/passkeys.server";
import { manageSessions } from "~/features/accounts/sessions.server";
import { confirmIdentity } from "~/features/accounts/step-up.server";
import { staffRoleOf } from "~/features/identity/session.server";
import { staffPaymentAction } from "~/features/payments/after-sale.server";
import { loader as exportCsv } from "~/routes/admin-exportar";
import { loader as exportAudit } from "~/routes/admin-auditoria-exportar";
import { loader as exportVerifactu } from "~/routes/admin-verifactu-exportar";
import { loader as exportInvoiceBook } from "~/routes/admin-libro-facturas";
import { staffCustomerPage } from "~/features/admin/customer-page.server";
import { paymentSuccess } from "~/features/payments/payment-receipt.server";
import { secondFactorSettingsAction } from "~/features/accounts/second-factor-settings.server";
import { secondFactorSignIn } from "~/features/accounts/second-factor-sign-in.server";
import { getAuth } from "~/features/identity/auth.server";
import { deleteAccountOnRequest } from "~/features/privacy/account-deletion.server";
import { getConfig } from "~/platform/config.server";
import {
  customers,
  mailOutbox,
  payments,
  purchases,
  sessions,
  staffAuditLog,
  userRoles,
  users,
  verifications,
} from "~/platform/db/schema";
import {
  enrolTotp,
  formPost,
  signedInAdmin,
  signedInCustomer,
  viewerOf,
} from "../support/customer-session";
import { cookiesAfter } from "../support/cookie-header";
import { paidPurchase } from "../support/paid-purchase";
import { totpCode, totpStep } from "../support/totp";
import { setupTestDatabase } from "../support/test-database";

/**
 * The identity attack suite (issue 36, decision 063): one test per attack an earlier review
 * reproduced live, and per OWASP ASVS 5.0 V6/V7 requirement the table in
 * docs/security/asvs-v6-v7.md maps here. Each drives the real actions with the requests an
 * attacker would send.
 */
const database = setupTestDatabase();

type Answer = Response | { init: { status?: number } | null; data: unknown };
const statusOf = (answer: Answer) =>
  answer instanceof Response ? answer.status : (answer.init?.status ?? 200);

/** The cookies an answer sets, merged into a Cookie header (later values win). */
const jar = (before: string, answer: Response) => cookiesAfter(answer, before);

const cookieNamed = (header: string, name: RegExp) =>
  header.split("; ").find((pair) => name.test(pair.split("=")[0]!));

const auditOf = (userId: string) =>
  database.db.select().from(staffAuditLog).where(eq(staffAuditLog.targetId, userId));

describe("finding 1: the second factor is bound to its sign-in", () => {
  it("refuses a used code replayed with another account's pending state, and audits it against the administrator", async () => {
    const adminEmail = "admin-reto@example.com";
    const adminPassword = "Adm-contraseña-reto-1";
    const admin = await signedInAdmin(adminEmail, { password: adminPassword });
    const customerEmail = "atacante@example.com";
    const customerPassword = "contraseña-atacante-1";
    const customer = await signedInCustomer(customerEmail, { password: customerPassword });
    await enrolTotp(customer.cookie, customerPassword);

    // The administrator signs in with a code; the attacker saw it.
    const usedCode = totpCode(admin.secret!, totpStep() + 1);
    const adminChallenge = jar(
      "",
      (await adminSignIn({
        request: formPost("/login", { email: adminEmail, password: adminPassword }),
        clientAddress: "192.0.2.10",
      })) as Response,
    );
    const legitimate = await secondFactorSignIn(
      {
        request: formPost("/login/verificacion", { code: usedCode }, adminChallenge),
        clientAddress: "192.0.2.10",
      },
      "staff",
    );
    expect(statusOf(legitimate)).toBe(302);

    // The attacker: her own account's pending state, the administrator's password challenge.
    const own = jar(
      "",
      (await customerSignIn({
        request: formPost("/login-cliente", { email: customerEmail, password: customerPassword }),
        clientAddress: "198.51.100.7",
      })) as Response,
    );
    const stolenChallenge = (await adminSignIn({
      request: formPost("/login", { email: adminEmail, password: adminPassword }),
      clientAddress: "198.51.100.7",
    })) as Response;
    const adminTwoFactor = cookieNamed(jar("", stolenChallenge), /two_factor$/)!;
    const mixed = jar(own, new Response(null, { headers: { "Set-Cookie": adminTwoFactor } }));

    const replay = await secondFactorSignIn(
      {
        request: formPost("/login-cliente/verificacion", { code: usedCode }, mixed),
        clientAddress: "198.51.100.7",
      },
      "customers",
    );
    expect(statusOf(replay)).toBe(401);
    if (replay instanceof Response) expect(jar("", replay)).not.toMatch(/session_token=/);
    // Refused against the administrator's account, the one the challenge would have opened.
    const rows = await auditOf(admin.userId);
    expect(rows.find((row) => row.action === "staff.second_factor_failed")).toMatchObject({
      actorId: admin.userId,
      targetId: admin.userId,
      details: { motivo: "código repetido" },
    });
  });

  it("checks the challenge's account even when the browser also holds a session", async () => {
    const adminEmail = "admin-sesion@example.com";
    const adminPassword = "Adm-contraseña-reto-2";
    const admin = await signedInAdmin(adminEmail, { password: adminPassword });
    const customerPassword = "contraseña-atacante-2";
    const customer = await signedInCustomer("atacante-2@example.com", {
      password: customerPassword,
    });
    const attacker = await enrolTotp(customer.cookie, customerPassword);
    const challenge = jar(
      "",
      (await adminSignIn({
        request: formPost("/login", { email: adminEmail, password: adminPassword }),
        clientAddress: "198.51.100.8",
      })) as Response,
    );
    // The attacker's own valid code, sent with her own session and the administrator's challenge.
    const answer = await secondFactorSignIn(
      {
        request: formPost(
          "/login/verificacion",
          { code: totpCode(attacker.secret) },
          `${challenge}; ${attacker.cookie}`,
        ),
        clientAddress: "198.51.100.8",
      },
      "staff",
    );
    expect(statusOf(answer)).toBe(401);
    expect((await auditOf(admin.userId)).map((row) => row.action)).toContain(
      "staff.second_factor_failed",
    );
  });

  it("lets a challenge expire on the server: a kept cookie is worthless after 10 minutes", async () => {
    const email = "caduca@example.com";
    const password = "Adm-contraseña-reto-3";
    const admin = await signedInAdmin(email, { password });
    const challenge = jar(
      "",
      (await adminSignIn({
        request: formPost("/login", { email, password }),
        clientAddress: "192.0.2.11",
      })) as Response,
    );
    const { verifications } = await import("~/platform/db/schema");
    const { like } = await import("drizzle-orm");
    await database.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(like(verifications.identifier, "2fa-%"), eq(verifications.value, admin.userId)));
    const answer = await secondFactorSignIn(
      {
        request: formPost("/login/verificacion", { code: totpCode(admin.secret!) }, challenge),
        clientAddress: "192.0.2.11",
      },
      "staff",
    );
    expect(statusOf(answer)).toBe(302);
    expect((answer as Response).headers.get("Location")).toBe("/login");
  });
});

describe("finding 5: confirming an enrolment while the factor is on", () => {
  it("is refused: no false enrolment row, no session ended", async () => {
    const email = "ya-activada@example.com";
    const password = "Adm-contraseña-conf-1";
    const admin = await signedInAdmin(email, { password });
    const staff = {
      id: admin.userId,
      email,
      emailVerified: true,
      createdAt: new Date().toISOString(),
      role: "admin" as const,
      clientAddress: "192.0.2.12",
      userAgent: null,
    };
    const before = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, admin.userId));
    const issuer = getConfig().company.brandName;
    const uri = `otpauth://totp/${encodeURIComponent(`${issuer}:${email}`)}?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=x`;
    const answer = await secondFactorSettingsAction(
      {
        request: formPost(
          "/admin/seguridad",
          { intent: "confirm", uri, code: totpCode(admin.secret!, totpStep() - 1) },
          admin.cookie,
        ),
        clientAddress: "192.0.2.12",
      },
      staff,
      "/admin/seguridad",
    );
    expect(statusOf(answer as Answer)).toBe(409);
    const after = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, admin.userId));
    expect(after.length).toBe(before.length);
    const enrolments = (await auditOf(admin.userId)).filter(
      (row) => row.action === "factor.enrolled",
    );
    expect(enrolments).toHaveLength(0);
  });
});

describe("finding 8: six parallel uses of one recovery code", () => {
  it("give one sign-in and plain refusals, never a 503", async () => {
    const email = "recuperacion@example.com";
    const password = "Adm-contraseña-rec-1";
    const admin = await signedInAdmin(email, { password });
    const { backupCodes } = await (
      await getAuth()
    ).api.viewBackupCodes({ body: { userId: admin.userId } });
    const code = backupCodes[0]!;
    const challenges = await Promise.all(
      Array.from({ length: 6 }, async (_, index) =>
        jar(
          "",
          (await adminSignIn({
            request: formPost("/login", { email, password }),
            clientAddress: `192.0.2.${30 + index}`,
          })) as Response,
        ),
      ),
    );
    const answers = await Promise.all(
      challenges.map((challenge, index) =>
        secondFactorSignIn(
          {
            request: formPost("/login/verificacion", { method: "recovery", code }, challenge),
            clientAddress: `192.0.2.${30 + index}`,
          },
          "staff",
        ),
      ),
    );
    const statuses = answers.map(statusOf);
    const signedIn = answers.filter(
      (answer) => answer instanceof Response && jar("", answer).includes("session_token="),
    );
    expect(signedIn).toHaveLength(1);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});

describe("finding 3: the last administrator", () => {
  it("cannot delete her own account; another administrator's deletion is audited", async () => {
    const lastPassword = "Adm-contraseña-ultima-1";
    const last = await signedInAdmin("ultima-admin@example.com", { password: lastPassword });
    const otherPassword = "Adm-contraseña-otra-1";
    const other = await signedInAdmin("otra-admin@example.com", { password: otherPassword });
    // Only these two are administrators in this file's database from here on.
    await database.db
      .delete(userRoles)
      .where(
        and(eq(userRoles.role, "admin"), notInArray(userRoles.userId, [last.userId, other.userId])),
      );
    const deleteOwn = async (cookie: string, password: string) =>
      (await deleteAccountOnRequest(
        {
          request: formPost("/mi-cuenta/eliminar", { confirmation: "ELIMINAR", password }, cookie),
          clientAddress: "192.0.2.40",
        },
        (await viewerOf(cookie))!,
      )) as Response;

    const first = await deleteOwn(other.cookie, otherPassword);
    expect(first.headers.get("Location")).toBe("/");
    expect(await database.db.select().from(users).where(eq(users.id, other.userId))).toEqual([]);
    expect(
      (await auditOf(other.userId)).find((row) => row.action === "account.deleted"),
    ).toMatchObject({
      actorId: other.userId,
      targetId: other.userId,
      clientAddress: "192.0.2.40",
    });

    const refused = await deleteOwn(last.cookie, lastPassword);
    expect(refused.headers.get("Location")).toBe("/mi-cuenta?tab=configuracion");
    expect(await database.db.select().from(users).where(eq(users.id, last.userId))).toHaveLength(1);
  });
});

describe("finding 6: security events in the audit log", () => {
  it("records a staff password reset by mail, which ends every session", async () => {
    const email = "olvido@example.com";
    const admin = await signedInAdmin(email, { password: "Adm-contraseña-olvido-1" });
    await requestPasswordReset({
      request: formPost("/recuperar-password", { email }),
      clientAddress: "192.0.2.41",
    });
    const [link] = await database.db
      .select()
      .from(verifications)
      .where(eq(verifications.value, admin.userId));
    const token = link!.identifier.replace("reset-password:", "");
    const done = (await resetPassword({
      request: formPost("/actualizar-password", {
        token,
        password: "Una-contraseña-nueva-9",
        confirmPassword: "Una-contraseña-nueva-9",
      }),
      clientAddress: "192.0.2.41",
    })) as Response;
    expect(done.status).toBe(302);
    expect(await viewerOf(admin.cookie)).toBeNull();
    expect(
      (await auditOf(admin.userId)).find((row) => row.action === "staff.password_reset"),
    ).toMatchObject({
      actorId: admin.userId,
      targetId: admin.userId,
      clientAddress: "192.0.2.41",
    });
  });
});

describe("finding 7: /pago-exitoso names what was bought", () => {
  it("never repeats the address's text: a catalogue service, or 'servicio'", async () => {
    const site = getConfig().siteUrl;
    const named = async (query: string) =>
      (await paymentSuccess(null, new URL(`${site}/pago-exitoso${query}`))).serviceName;
    expect(await named("?service=HACKME")).toBeNull();
    expect(await named("?service=Ciberseguridad")).toBe("Ciberseguridad");
    expect(await named("")).toBeNull();
  });
});

describe("finding 8: least privilege for Soporte", () => {
  it("shows customers without what they spent, in the list and on the customer's page", async () => {
    await database.db
      .insert(customers)
      .values({ email: "gasta@example.com", name: "Gasta", totalOrders: 2, totalSpent: 89_800 });
    const support = {
      id: "soporte-1",
      email: "soporte@example.com",
      emailVerified: true,
      createdAt: new Date().toISOString(),
      role: "support" as const,
      clientAddress: "192.0.2.42",
      userAgent: null,
    };
    const list = await staffPanel(new URL(`${getConfig().siteUrl}/admin?tab=clientes`), support);
    const row = list.listing!.rows.find(
      (candidate) => "email" in candidate && candidate.email === "gasta@example.com",
    );
    expect(row).toMatchObject({ totalOrders: 2, totalSpent: null });
    const [customer] = await database.db
      .select()
      .from(customers)
      .where(eq(customers.email, "gasta@example.com"));
    const page = await staffCustomerPage(support, customer!.id);
    expect(page?.totals).toEqual({ orders: 2, spent: null });
    const finance = await staffCustomerPage({ ...support, role: "finance" }, customer!.id);
    expect(finance?.totals).toEqual({ orders: 2, spent: 89_800 });
  });
});

describe("step-up: sensitive changes ask who you are when the session is older than 10 minutes", () => {
  const ageSessions = (userId: string, minutes: number) =>
    database.db
      .update(sessions)
      .set({
        createdAt: new Date(Date.now() - minutes * 60_000),
        lastSeenAt: new Date(Date.now() - 60_000),
      })
      .where(eq(sessions.userId, userId));

  async function staffOf(email: string, password: string) {
    const made = await signedInAdmin(email, { password });
    const viewer = (await viewerOf(made.cookie))!;
    return {
      ...made,
      staff: { ...viewer, role: "admin" as const, clientAddress: "192.0.2.44", userAgent: null },
    };
  }

  const thrownBy = async (run: () => Promise<unknown>) => {
    try {
      return await run();
    } catch (answer) {
      return answer;
    }
  };

  it("sends a stale administrator to confirm before a role change, and lets the change through after", async () => {
    const password = "Adm-contraseña-paso-1";
    const admin = await staffOf("paso-arriba@example.com", password);
    const target = await signedInCustomer("futuro-soporte@example.com");
    await ageSessions(admin.userId, 11);
    const change = (cookie: string) =>
      thrownBy(() =>
        adminAction(
          formPost(
            "/admin?tab=usuarios",
            { intent: "set-role", userId: target.userId, role: "support", confirm: "yes" },
            cookie,
          ),
          admin.staff,
        ),
      );
    const refused = (await change(admin.cookie)) as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe(
      "/confirmar-identidad?volver=%2Fadmin%3Ftab%3Dusuarios",
    );
    expect(await staffRoleOf(target.userId)).toBeNull();

    const confirm = (fields: Record<string, string>, cookie = admin.cookie) =>
      confirmIdentity({
        request: formPost("/confirmar-identidad?volver=%2Fadmin%3Ftab%3Dusuarios", fields, cookie),
        clientAddress: "192.0.2.44",
      });
    // The password alone is not enough for an account with the app's code.
    expect(statusOf((await confirm({ password })) as Answer)).toBe(400);
    expect(statusOf((await confirm({ password: "otra-cosa", code: "123456" })) as Answer)).toBe(
      400,
    );
    const failures = (await auditOf(admin.userId)).filter(
      (row) => row.action === "staff.reauthentication_failed",
    );
    expect(failures.at(-1)).toMatchObject({ actorId: admin.userId, targetId: admin.userId });

    const confirmed = (await confirm({
      password,
      code: totpCode(admin.secret!, totpStep() + 1),
    })) as Response;
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/admin?tab=usuarios");
    // A new session (ASVS 5.0 7.2.4): the old token no longer opens anything.
    const renewed = jar(admin.cookie, confirmed);
    expect(renewed).not.toBe(admin.cookie);
    expect(await viewerOf(admin.cookie)).toBeNull();
    expect((await auditOf(admin.userId)).map((row) => row.action)).toContain(
      "staff.reauthenticated",
    );
    const changed = (await change(cookieNamed(renewed, /session_token$/)!)) as Response;
    expect(changed.status).toBe(302);
    expect(await staffRoleOf(target.userId)).toBe("support");
  });

  it("asks a stale session to confirm before the app's codes are turned off, started or renewed", async () => {
    // Found by hand: a session 30 minutes old turned the factor off with the password alone, so a
    // stolen session and a known password could strip the second factor (or take new recovery
    // codes, a way in of their own) without the phone the proof at /confirmar-identidad asks for.
    const password = "Cliente-contraseña-paso-9";
    const made = await signedInCustomer("paso-factor@example.com", { password });
    const { cookie, secret } = await enrolTotp(made.cookie, password);
    await ageSessions(made.userId, 11);
    const viewer = (await viewerOf(cookie))!;
    for (const intent of ["disable", "recovery-codes", "start"]) {
      const answer = (await thrownBy(() =>
        secondFactorSettingsAction(
          {
            request: formPost(
              "/mi-cuenta/seguridad",
              { intent, password, code: totpCode(secret) },
              cookie,
            ),
            clientAddress: "192.0.2.45",
          },
          viewer,
          "/mi-cuenta/seguridad",
        ),
      )) as Response;
      expect(answer.status, intent).toBe(302);
      expect(answer.headers.get("Location"), intent).toBe(
        "/confirmar-identidad?volver=%2Fmi-cuenta%2Fseguridad",
      );
    }
    const [user] = await database.db.select().from(users).where(eq(users.id, made.userId));
    expect(user!.twoFactorEnabled).toBe(true);
  });

  it("guards every sensitive door: exports, factor resets, refunds, anulaciones, passkeys and sessions", async () => {
    const admin = await staffOf("paso-puertas@example.com", "Adm-contraseña-paso-2");
    await ageSessions(admin.userId, 11);
    const site = getConfig().siteUrl;
    const get = (path: string) =>
      new Request(`${site}${path}`, {
        headers: { Cookie: admin.cookie, Referer: `${site}/admin?tab=pagos` },
      });
    const args = (request: Request) =>
      ({ request, context: { clientAddress: "192.0.2.45" }, params: {} }) as never;
    const exports = [
      () => exportCsv(args(get("/admin/exportar?tab=pagos"))),
      () => exportAudit(args(get("/admin/auditoria/exportar"))),
      () => exportVerifactu(args(get("/admin/verifactu/exportar"))),
      () => exportInvoiceBook(args(get("/admin/libro-facturas"))),
    ];
    for (const download of exports) {
      const answer = (await thrownBy(download)) as Response;
      expect(answer.status).toBe(302);
      // Back to the page of the link, not to the file.
      expect(answer.headers.get("Location")).toBe(
        "/confirmar-identidad?volver=%2Fadmin%3Ftab%3Dpagos",
      );
    }
    const posts: [string, () => Promise<unknown>][] = [
      [
        "factor reset",
        () =>
          adminAction(
            formPost(
              "/admin?tab=usuarios",
              { intent: "reset-second-factor", userId: "alguien", confirm: "yes" },
              admin.cookie,
            ),
            admin.staff,
          ),
      ],
      [
        "anulación",
        () => {
          const request = formPost(
            "/admin/verifactu",
            { intent: "cancel-record", recordId: "1", confirm: "yes" },
            admin.cookie,
          );
          return verifactuAction(request, staffDesk(request, admin.staff));
        },
      ],
      [
        "sessions",
        () =>
          manageSessions(
            {
              request: formPost("/cuenta/sesiones", { intent: "revoke-all" }, admin.cookie),
              clientAddress: "192.0.2.45",
            },
            { ...admin.staff },
          ),
      ],
      [
        "passkey removal",
        () =>
          managePasskey(
            {
              request: formPost(
                "/cuenta/llaves-de-acceso",
                { intent: "delete", passkeyId: "una-llave" },
                admin.cookie,
              ),
              clientAddress: "192.0.2.45",
            },
            { ...admin.staff },
          ),
      ],
    ];
    for (const [name, post] of posts) {
      const answer = (await thrownBy(post)) as Response;
      expect(answer.headers?.get("Location"), name).toMatch(/^\/confirmar-identidad\?volver=/);
    }
    // Finding 2: a stolen session adds no passkey without a fresh proof (JSON for the script).
    const passkey = (await thrownBy(() =>
      passkeyRegistration({
        request: new Request(`${site}/cuenta/llaves-de-acceso/registro`, {
          method: "POST",
          headers: {
            Cookie: admin.cookie,
            Origin: site,
            "Content-Type": "application/json",
            Referer: `${site}/admin/seguridad`,
          },
          body: JSON.stringify({ step: "options" }),
        }),
        clientAddress: "192.0.2.45",
      }),
    )) as Response;
    expect(passkey.status).toBe(403);
    expect(await passkey.json()).toEqual({
      error: "stepUpRequired",
      to: "/confirmar-identidad?volver=%2Fadmin%2Fseguridad",
    });
  });

  it("lets a fresh sign-in through without asking again", async () => {
    const admin = await staffOf("paso-fresco@example.com", "Adm-contraseña-paso-3");
    const site = getConfig().siteUrl;
    const answer = (await thrownBy(() =>
      exportAudit({
        request: new Request(`${site}/admin/auditoria/exportar`, {
          headers: { Cookie: admin.cookie },
        }),
        context: { clientAddress: "192.0.2.46" },
        params: {},
      } as never),
    )) as Response;
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toMatch(/text\/csv/);
  });

  it("refuses a refund on a stale finance session before anything is asked of the provider", async () => {
    const finance = await staffOf("paso-finanzas@example.com", "Adm-contraseña-paso-4");
    await ageSessions(finance.userId, 11);
    const { purchase } = await paidPurchase(database.db, {}, { email: "reembolso@example.com" });
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.purchaseId, purchase.id));
    const answer = (await thrownBy(() =>
      staffPaymentAction(
        formPost(
          `/admin/pagos/${payment!.id}`,
          { intent: "refund", reason: "Prueba", confirm: "yes" },
          finance.cookie,
        ),
        { ...finance.staff, role: "finance" },
        payment!.id,
      ),
    )) as Response;
    expect(answer.headers.get("Location")).toBe(
      `/confirmar-identidad?volver=${encodeURIComponent(`/admin/pagos/${payment!.id}`)}`,
    );
    const [after] = await database.db.select().from(purchases).where(eq(purchases.id, purchase.id));
    expect(after!.status).toBe("completed");
    expect(after!.refundRequestedAt).toBeNull();
  });
});

describe("ASVS 6.1.2 and 6.2.11: the site's own words are no password", () => {
  const signUpWith = (email: string, password: string) =>
    signUp({
      request: formPost("/registro", { email, password, confirmPassword: password }),
      clientAddress: "192.0.2.47",
    }) as Promise<Answer>;

  it("refuses the company's name, a service, a role or the address's name, however dressed up", async () => {
    for (const [email, password] of [
      ["marta@example.com", "Vertice-Digital2026!"],
      ["marta@example.com", "V3rt1c3D1g1t4l"],
      ["marta@example.com", "Ciberseguridad#2026"],
      ["marta@example.com", "Administrador123"],
      ["marta.lopez.garcia@example.com", "Marta.Lopez.Garcia99"],
    ] as const) {
      const answer = await signUpWith(email, password);
      expect(statusOf(answer), password).toBe(400);
      expect((answer as { data: { errors: { code: string }[] } }).data.errors[0]!.code).toBe(
        "passwordContextWord",
      );
    }
  });

  it("lets a passphrase that merely contains one through", async () => {
    const answer = await signUpWith("frase@example.com", "mi vértice favorito es el norte");
    expect(statusOf(answer)).not.toBe(400);
  });
});

describe("ASVS 5.0 V6 and V7, one test per requirement the other suites do not hold", () => {
  it("ASVS 6.2.8, 6.2.9: a 64-character password is accepted and checked exactly as typed", async () => {
    const email = "larga@example.com";
    const password = "una frase larga de sesenta y cuatro letras para entrar, sin más!";
    expect(password).toHaveLength(64);
    await signedInCustomer(email, { password });
    const signIn = async (typed: string) =>
      statusOf(
        (await customerSignIn({
          request: formPost("/login-cliente", { email, password: typed }),
          clientAddress: "192.0.2.48",
        })) as Answer,
      );
    expect(await signIn(password.slice(0, 63))).toBe(401);
    expect(await signIn(password.toUpperCase())).toBe(401);
    expect(await signIn(password)).toBe(302);
  });

  it("ASVS 6.4.3: a password reset by mail still asks for the second factor", async () => {
    const email = "reset-factor@example.com";
    const admin = await signedInAdmin(email, { password: "Adm-contraseña-reset-1" });
    await requestPasswordReset({
      request: formPost("/recuperar-password", { email }),
      clientAddress: "192.0.2.49",
    });
    const [link] = await database.db
      .select()
      .from(verifications)
      .where(eq(verifications.value, admin.userId));
    const password = "Otra-contraseña-nueva-7";
    await resetPassword({
      request: formPost("/actualizar-password", {
        token: link!.identifier.replace("reset-password:", ""),
        password,
        confirmPassword: password,
      }),
      clientAddress: "192.0.2.49",
    });
    const signIn = (await adminSignIn({
      request: formPost("/login", { email, password }),
      clientAddress: "192.0.2.49",
    })) as Response;
    expect(signIn.headers.get("Location")).toBe("/login/verificacion");
    expect(jar("", signIn)).not.toMatch(/session_token=/);
  });

  it("ASVS 6.5.5: a code from two steps ago is refused", async () => {
    const email = "codigo-viejo@example.com";
    const password = "Adm-contraseña-viejo-1";
    const admin = await signedInAdmin(email, { password });
    const challenge = jar(
      "",
      (await adminSignIn({
        request: formPost("/login", { email, password }),
        clientAddress: "192.0.2.50",
      })) as Response,
    );
    const stale = await secondFactorSignIn(
      {
        request: formPost(
          "/login/verificacion",
          { code: totpCode(admin.secret!, totpStep() - 2) },
          challenge,
        ),
        clientAddress: "192.0.2.50",
      },
      "staff",
    );
    expect(statusOf(stale)).toBe(401);
  });

  it("ASVS 7.2.2, 7.2.3: session tokens are unique, random and at least 128 bits", async () => {
    const made = await Promise.all(
      ["uno", "dos", "tres"].map((name) => signedInCustomer(`token-${name}@example.com`)),
    );
    const tokens = await database.db
      .select({ token: sessions.token })
      .from(sessions)
      .where(
        inArray(
          sessions.userId,
          made.map((one) => one.userId),
        ),
      );
    expect(new Set(tokens.map((row) => row.token)).size).toBe(tokens.length);
    for (const { token } of tokens) {
      // 32 characters of 62 possible each: about 190 bits.
      expect(token).toMatch(/^[A-Za-z0-9]{32,}$/);
    }
  });

  it("ASVS 7.4.1: a signed-out session's cookie opens nothing", async () => {
    const customer = await signedInCustomer("salida@example.com");
    await signOut({ request: formPost("/cerrar-sesion", {}, customer.cookie) });
    expect(await viewerOf(customer.cookie)).toBeNull();
  });

  it("ASVS 7.4.5: an administrator ends every session of an account, audited", async () => {
    const admin = await signedInAdmin("cierra-sesiones@example.com", {
      password: "Adm-contraseña-cierre-1",
    });
    const viewer = (await viewerOf(admin.cookie))!;
    const staff = {
      ...viewer,
      role: "admin" as const,
      clientAddress: "192.0.2.51",
      userAgent: null,
    };
    const customer = await signedInCustomer("portatil-perdido@example.com");
    const answer = (await adminAction(
      formPost(
        "/admin?tab=usuarios",
        { intent: "end-sessions", userId: customer.userId, confirm: "yes" },
        admin.cookie,
      ),
      staff,
    )) as Response;
    expect(answer.status).toBe(302);
    expect(await viewerOf(customer.cookie)).toBeNull();
    expect(
      (await auditOf(customer.userId)).find((row) => row.action === "session.ended_by_admin"),
    ).toMatchObject({ actorId: admin.userId, targetId: customer.userId, details: { sesiones: 1 } });
    // Not one's own (the security page does that), and only with the confirmation.
    const own = await adminAction(
      formPost(
        "/admin?tab=usuarios",
        { intent: "end-sessions", userId: admin.userId, confirm: "yes" },
        admin.cookie,
      ),
      staff,
    );
    expect(statusOf(own as Answer)).toBe(409);
  });
});

/** The security page's forms, posted by a signed-in customer from Chrome on Windows. */
async function securityFormsOf(email: string, password: string) {
  const customer = await signedInCustomer(email, { password });
  const owner = (await viewerOf(customer.cookie))!;
  return (fields: Record<string, string>) =>
    secondFactorSettingsAction(
      {
        request: new Request(`${getConfig().siteUrl}/mi-cuenta/seguridad`, {
          method: "POST",
          body: new URLSearchParams(fields),
          headers: {
            Cookie: customer.cookie,
            Origin: getConfig().siteUrl,
            "User-Agent":
              "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
          },
        }),
        clientAddress: "192.0.2.52",
      },
      owner,
      "/mi-cuenta/seguridad",
    );
}

describe("an enrolment started twice (issue 39, item 4)", () => {
  it("shows the same secret again, so the app that scanned the first QR still gives good codes", async () => {
    const password = "contraseña-de-la-recarga-1";
    const act = await securityFormsOf("recarga-factor@example.com", password);
    type Started = { setup: { uri: string } };
    const first = (await act({ intent: "start", password })) as Started;
    // The page reloads, or the phone comes back from the authenticator: the person starts again.
    const again = (await act({ intent: "start", password })) as Started;
    const secretOf = (started: Started) => new URL(started.setup.uri).searchParams.get("secret")!;
    expect(secretOf(again)).toBe(secretOf(first));
    const confirmed = (await act({
      intent: "confirm",
      uri: again.setup.uri,
      code: totpCode(secretOf(first)),
    })) as Response;
    expect(confirmed.status).toBe(302);
  });
});

describe("finding 2: a new way in is told to the owner", () => {
  it("mails the owner when the app's codes are turned on, naming the device", async () => {
    const email = "aviso-factor@example.com";
    const password = "contraseña-del-aviso-1";
    const act = await securityFormsOf(email, password);
    const started = (await act({ intent: "start", password })) as { setup: { uri: string } };
    const secret = new URL(started.setup.uri).searchParams.get("secret")!;
    const confirmed = (await act({
      intent: "confirm",
      uri: started.setup.uri,
      code: totpCode(secret),
    })) as Response;
    expect(confirmed.status).toBe(302);
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, "security-new-way-in")));
    expect(mail?.subject).toMatch(/^Nueva forma de entrar en tu cuenta/);
    expect(mail?.text).toContain("Chrome en Windows");
    expect(mail?.text).toContain("/mi-cuenta/seguridad");
  });
});
