import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { DEFAULT_RETURN_PATH, returnPathOf } from "~/features/identity/return-path";
import { takeReturnPath } from "~/features/identity/return-path.server";
import { pendingVerificationCookie } from "~/features/identity/journey-cookies.server";
import { getViewer } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { users } from "~/platform/db/schema";
import { humanCheckEnabled } from "~/platform/human-check/human-check.server";

/** The loaders of the account pages: what each page needs before it is drawn. */

/**
 * What a loader or action gives its page (`loaderData`, `actionData`): the data of its `data()`
 * answers; its redirects give none.
 */
export type DataOf<Handler extends (...args: never[]) => unknown> = Extract<
  Awaited<ReturnType<Handler>>,
  { data: unknown }
>["data"];

/** A signed-in visitor has nothing to do on the sign-in pages: on to `?volver=`, or `fallback`. */
async function sendSignedInOn(request: Request, fallback: string) {
  const { viewer } = await getViewer(request);
  if (viewer) throw redirect(returnPathOf(request.url) ?? fallback);
}

export async function signInPage(request: Request) {
  await sendSignedInOn(request, DEFAULT_RETURN_PATH);
  return null;
}

export async function signUpPage(request: Request) {
  await sendSignedInOn(request, "/mi-cuenta");
  return { humanCheck: humanCheckEnabled() };
}

/** Whether the account of `email` has proved its address (the pending cookie's, this browser's). */
async function isVerified(email: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ verified: users.emailVerified })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  return row?.verified === true;
}

/**
 * /verificar-email: confirmed (in this tab or another, which signed this browser in), or still
 * waiting for the mail, whose address the pending-verification cookie holds; `?error=` is a link
 * that was not valid.
 */
export async function verificationPage(request: Request) {
  const { viewer, headers } = await getViewer(request);
  if (viewer?.emailVerified) {
    // The page chosen before signing up (a service, a guarded page) comes before Mi Cuenta.
    const kept = await takeReturnPath(request);
    if (kept.header) headers.append("Set-Cookie", kept.header);
    return data({ state: "verified" as const, email: viewer.email, next: kept.path }, { headers });
  }
  const pending = (await pendingVerificationCookie().parse(request.headers.get("Cookie"))) as
    string | null;
  const params = new URL(request.url).searchParams;
  const linkInvalid = params.has("error");
  // Verified elsewhere: by the link on another device (this browser is not signed in), or, for
  // the tab that signed up, by a link opened on another device while it waited.
  const verifiedElsewhere =
    !linkInvalid && (params.has("enlace") || (pending !== null && (await isVerified(pending))));
  const state = linkInvalid ? "link-invalid" : verifiedElsewhere ? "verified-elsewhere" : "sent";
  return data(
    {
      state: state as "sent" | "link-invalid" | "verified-elsewhere",
      email: pending ?? viewer?.email ?? null,
    },
    { headers },
  );
}

/** The reset link of the mail lands here with its token (or with ?error= when it is not valid). */
export function newPasswordPage(request: Request) {
  const params = new URL(request.url).searchParams;
  return { token: params.get("error") ? null : params.get("token") };
}
