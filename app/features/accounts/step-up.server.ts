import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import { recordStaffAction } from "~/features/audit/audit.server";
import { authApiError, getAuth } from "~/features/identity/auth.server";
import { returnPathOf, safeReturnPath, withReturnPath } from "~/features/identity/return-path";
import { claimTotpCode, releaseTotpCode } from "~/features/identity/second-factor.server";
import { getViewer, staffRoleOf, type Viewer } from "~/features/identity/session.server";
import { renewSessionAfterProof } from "~/features/identity/step-up.server";
import { getDb } from "~/platform/db/database.server";
import { users } from "~/platform/db/schema";
import { checkForm } from "~/platform/forms/form-answer";
import { readForm, refuse } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { checkAccountLimits, recordSignInFailure } from "./rate-limits.server";
import {
  secondFactorMessages,
  stepUpSchema,
  stepUpWithCodeSchema,
  type SecondFactorMessage,
} from "./second-factor-rules";

/**
 * /confirmar-identidad (decision 063): where a signed-in person proves who they are again before
 * a sensitive change (identity/step-up.server.ts sends them here). The password, and the app's
 * code for an account with a TOTP: a stolen session alone, or a stolen password alone, is not
 * enough. A plain form; wrong answers count as wrong passwords (same limits and back-off), and
 * staff's confirmations, right or wrong, go to the audit log.
 */

type ActionInput = { request: Request; clientAddress: string };

/** Where the page returns: the way back it was given, else the person's own area. */
function backOf(request: Request, staff: boolean) {
  return safeReturnPath(returnPathOf(request.url), staff ? "/admin" : "/mi-cuenta");
}

async function signedIn(request: Request): Promise<Viewer> {
  const { viewer } = await getViewer(request);
  if (viewer) return viewer;
  // No session at all: a new sign-in is proof enough, and it comes back to the same page.
  const back = returnPathOf(request.url);
  throw redirect(back?.startsWith("/admin") ? "/login" : withReturnPath("/login-cliente", back));
}

async function totpIsOn(userId: string) {
  const [row] = await getDb()
    .select({ on: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return row?.on === true;
}

/** The page's facts: who is confirming, whether the app's code is asked, where it goes back. */
export async function stepUpPage(request: Request) {
  const viewer = await signedIn(request);
  const staff = (await staffRoleOf(viewer.id)) !== null;
  return { email: viewer.email, totp: await totpIsOn(viewer.id), back: backOf(request, staff) };
}

export async function confirmIdentity({ request, clientAddress }: ActionInput) {
  const viewer = await signedIn(request);
  const role = await staffRoleOf(viewer.id);
  const totp = await totpIsOn(viewer.id);
  const fields = (await readForm(request))?.fields ?? {};
  const parsed = checkForm(totp ? stepUpWithCodeSchema : stepUpSchema, fields);
  if (!parsed.ok) return refuse(parsed.errors.slice(0, 1));
  const retryAfter = await checkAccountLimits("sign-in", { clientAddress, email: viewer.email });
  if (retryAfter !== undefined)
    return refuse("tooManyAttempts" satisfies SecondFactorMessage, { status: 429, retryAfter });

  const audit = async (
    action: "staff.reauthenticated" | "staff.reauthentication_failed",
    motivo?: string,
  ) => {
    if (!role) return;
    await recordStaffAction(getDb(), {
      actor: { ...viewer, role, clientAddress, userAgent: request.headers.get("User-Agent") },
      action,
      target: viewer.id,
      details: motivo ? { motivo } : { metodo: totp ? "contraseña y app" : "contraseña" },
    });
  };
  const wrong = async (code: SecondFactorMessage, field: "password" | "code", motivo: string) => {
    await recordSignInFailure({ clientAddress, email: viewer.email });
    await audit("staff.reauthentication_failed", motivo);
    return refuse(code, { status: 400, field });
  };

  const auth = await getAuth();
  const passwordRight = await auth.api
    .verifyPassword({ body: { password: parsed.data.password }, headers: request.headers })
    .then(() => true)
    .catch(async (error: unknown) => {
      if (await authApiError(error)) return false;
      throw error;
    });
  if (!passwordRight) return wrong("stepUpPasswordWrong", "password", "contraseña incorrecta");

  const code = "code" in parsed.data ? String(parsed.data.code) : null;
  if (code !== null) {
    const claimed = await claimTotpCode(viewer.id, code);
    if (claimed === null) return wrong("codeReused", "code", "código repetido");
    try {
      // With a session, Better Auth checks the code of that session's account, and only that.
      await auth.api.verifyTOTP({ body: { code }, headers: request.headers });
    } catch (error) {
      await releaseTotpCode(viewer.id, code, claimed);
      if ((await authApiError(error))?.body?.code === "INVALID_CODE")
        return wrong("codeWrong", "code", "código incorrecto");
      throw error;
    }
  }
  const headers = await renewSessionAfterProof(request);
  await audit("staff.reauthenticated");
  return redirectWithToast(
    backOf(request, role !== null),
    { kind: "success", ...secondFactorMessages.stepUpDone },
    { headers },
  );
}
