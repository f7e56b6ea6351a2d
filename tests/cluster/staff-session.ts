import { totpCode, totpStep } from "../support/totp";
import { check, CookieJar, postForm } from "./harness";

/**
 * Staff over HTTP against a running build (decision 044: staff pages need a second factor). The
 * in-process helpers of tests/support/customer-session.ts (signedInAdmin, enrolTotp) call the
 * app's modules on the test's own database; a build in another process is reached the way a
 * person reaches it: the sign-in form, the security page's enrolment, a code computed from the
 * secret the page shows (tests/support/totp.ts).
 */

export async function signIn(url: string, door: string, email: string, password: string) {
  const answer = await postForm(`${url}${door}`, { email, password });
  check(answer.status === 302, `signing in ${email} at ${door} answered ${answer.status}`);
  const jar = new CookieJar().take(answer);
  check(jar.has(/session_token$/), `signing in ${email} set no session cookie`);
  return jar;
}

export type EnrolledStaff = { jar: CookieJar; secret: string; usedCodes: Set<string> };

/**
 * The staff member signed in, with a TOTP enrolled as the security page does it: the password,
 * the secret read from the page, a code computed here. Returns the secret (to sign in again
 * later, e.g. on a restored copy) and the code already spent (the server refuses it twice).
 */
export async function enrolledStaff(
  url: string,
  email: string,
  password: string,
): Promise<EnrolledStaff> {
  const jar = await signIn(url, "/login", email, password);
  const started = await postForm(
    `${url}/admin/seguridad`,
    { intent: "start", password },
    { cookie: jar.header },
  );
  const secret = /data-totp-secret="[^"]*">([^<]+)</.exec(started.body)?.[1]?.replace(/\s/g, "");
  const uri = /name="uri" value="([^"]+)"/.exec(started.body)?.[1]?.replaceAll("&amp;", "&");
  check(secret && uri, `the enrolment page of ${email} showed no secret`);
  const code = totpCode(secret);
  const confirmed = await postForm(
    `${url}/admin/seguridad`,
    { intent: "confirm", code, uri: uri! },
    { cookie: jar.header },
  );
  check(confirmed.status === 302, `confirming the factor of ${email} answered ${confirmed.status}`);
  return { jar: jar.take(confirmed), secret, usedCodes: new Set([code]) };
}

/**
 * A new staff sign-in with the second factor: the password at /login, then a code of `secret`
 * at /login/verificacion (this step's or the next's, never one already spent).
 */
export async function staffSignInWithCode(
  url: string,
  email: string,
  password: string,
  staff: Pick<EnrolledStaff, "secret" | "usedCodes">,
): Promise<CookieJar> {
  const first = await postForm(`${url}/login`, { email, password });
  check(
    first.status === 302 && String(first.headers.location).startsWith("/login/verificacion"),
    `the password of ${email} answered ${first.status} ${String(first.headers.location)}, not the code step`,
  );
  const jar = new CookieJar().take(first);
  const code = [totpStep(), totpStep() + 1]
    .map((step) => totpCode(staff.secret, step))
    .find((candidate) => !staff.usedCodes.has(candidate));
  check(code, "no unspent TOTP code in this step or the next");
  staff.usedCodes.add(code);
  const second = await postForm(`${url}/login/verificacion`, { code }, { cookie: jar.header });
  check(
    second.status === 302,
    `the code step of ${email} answered ${second.status}: ${second.body.slice(0, 120)}`,
  );
  jar.take(second);
  check(jar.has(/session_token$/), `the code step of ${email} set no session cookie`);
  return jar;
}
