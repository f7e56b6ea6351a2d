import { returnPathOf, safeReturnPath } from "./return-path";
import { signUpJourneyCookie } from "./journey-cookies.server";

/**
 * The page to come back to, kept across the verification mail: sign-up sets it from its
 * `?volver=`, and the first page that signs the visitor in (the confirmed /verificar-email, or a
 * later login without `?volver=`) takes it. Signed, HttpOnly, one day like the pending address;
 * its `vd_` name keeps the pages of its holder out of the shared page cache.
 */
function returnPathCookie() {
  return signUpJourneyCookie("vd_return_to");
}

/**
 * The Set-Cookie header that keeps the return path of `request`'s `?volver=`, or clears an older
 * one when this request has none (a sign-up without a chosen page forgets the previous choice).
 */
export async function rememberReturnPath(request: Request): Promise<string> {
  const path = returnPathOf(request.url);
  const cookie = returnPathCookie();
  return path ? cookie.serialize(path) : cookie.serialize("", { maxAge: 0 });
}

/** The remembered return path, if any, and the header that clears it. */
export async function takeReturnPath(
  request: Request,
): Promise<{ path: string | null; header?: string }> {
  const cookie = returnPathCookie();
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (value === null || value === undefined || value === "") return { path: null };
  const path = safeReturnPath(value, "");
  return { path: path || null, header: await cookie.serialize("", { maxAge: 0 }) };
}
