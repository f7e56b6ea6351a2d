import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adminSignIn } from "~/features/accounts/account-actions.server";
import { secondFactorSignIn } from "~/features/accounts/second-factor-sign-in.server";
import { claimTotpCode, hasSecondFactor } from "~/features/identity/second-factor.server";
import { requireStaff, requireStaffEnrolling } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { staffAuditLog } from "~/platform/db/schema";
import { enrolTotp, formPost, signedInAdmin } from "../support/customer-session";
import { cookiesAfter } from "../support/cookie-header";
import { totpCode, totpStep } from "../support/totp";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue 26, item 1 (decision 044): the gate in front of every staff page, and the code step of
 * the sign-in (Better Auth's two-factor plugin, our rate limits, replay record and audit log).
 */
const database = setupTestDatabase();

const context = { clientAddress: "192.0.2.120" };
const staffGet = (cookie: string) =>
  new Request(`${getConfig().siteUrl}/admin?tab=tickets`, { headers: { Cookie: cookie } });

async function thrown(run: () => Promise<unknown>) {
  try {
    await run();
    return null;
  } catch (answer) {
    return answer as Response;
  }
}

const cookiesOf = (answer: Response) => cookiesAfter(answer);

describe("the gate", () => {
  it("sends a staff account without a factor to /admin/seguridad, and lets it in once enrolled", async () => {
    const password = "contraseña-del-equipo-1";
    const made = await signedInAdmin("sin-factor@example.com", { password, secondFactor: false });
    expect(await hasSecondFactor(made.userId)).toBe(false);
    const refused = await thrown(() => requireStaff({ request: staffGet(made.cookie), context }));
    expect(refused?.status).toBe(302);
    expect(refused?.headers.get("Location")).toBe("/admin/seguridad");
    // The enrolment page itself is open to it.
    await expect(
      requireStaffEnrolling({ request: staffGet(made.cookie), context }),
    ).resolves.toMatchObject({ id: made.userId, role: "admin" });

    const enrolled = await enrolTotp(made.cookie, password);
    expect(await hasSecondFactor(made.userId)).toBe(true);
    await expect(
      requireStaff({ request: staffGet(enrolled.cookie), context }),
    ).resolves.toMatchObject({ id: made.userId });
  });
});

describe("the code step", () => {
  it("asks for the code after the password, refuses a wrong or replayed one, audits failures", async () => {
    const email = "con-factor@example.com";
    const password = "contraseña-del-equipo-2";
    const { secret, userId } = await signedInAdmin(email, { password });
    const signIn = async () => {
      const answer = (await adminSignIn({
        request: formPost("/login", { email, password }),
        clientAddress: context.clientAddress,
      })) as Response;
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/login/verificacion");
      // No session yet: only the challenge.
      expect(answer.headers.getSetCookie().some((value) => /two_factor=/.test(value))).toBe(true);
      return cookiesOf(answer);
    };
    const sendCode = (cookie: string, code: string) =>
      secondFactorSignIn(
        { request: formPost("/login/verificacion", { method: "totp", code }, cookie), ...context },
        "staff",
      ) as Promise<Response | { init: { status?: number } | null; data: unknown }>;
    const statusOf = (answer: Awaited<ReturnType<typeof sendCode>>) =>
      answer instanceof Response ? answer.status : (answer.init?.status ?? 200);

    const challenge = await signIn();
    const wrong = totpCode(secret!, totpStep() + 10);
    const refused = await sendCode(challenge, wrong);
    expect(statusOf(refused)).toBe(401);
    const [failure] = await database.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.action, "staff.second_factor_failed"))
      .orderBy(desc(staffAuditLog.id))
      .limit(1);
    expect(failure).toMatchObject({ actorId: userId, actorEmail: email });

    const code = totpCode(secret!, totpStep() + 1);
    const accepted = await sendCode(challenge, code);
    expect(statusOf(accepted)).toBe(302);
    expect((accepted as Response).headers.get("Location")).toBe("/admin");
    expect(cookiesOf(accepted as Response)).toMatch(/session_token=/);

    // The same code in a new challenge, within its window: a replay.
    const again = await signIn();
    expect(statusOf(await sendCode(again, code))).toBe(401);
  });

  it("claims a code once per window, in one statement", async () => {
    const made = await signedInAdmin("carrera@example.com");
    const claims = await Promise.all([
      claimTotpCode(made.userId, "424242"),
      claimTotpCode(made.userId, "424242"),
    ]);
    expect(claims.filter((step) => step !== null)).toHaveLength(1);
  });
});
