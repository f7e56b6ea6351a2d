import { randomUUID } from "node:crypto";
import { createCookie, redirect } from "react-router";
import { getConfig } from "../config.server";
import type { Toast } from "./toast";

/** A toast waiting for the next page; the id lets the page show it exactly once. */
export type PendingToast = Toast & { id: string };

/** A short-lived signed cookie carries the toast across the redirect. */
function toastCookie() {
  const config = getConfig();
  return createCookie("vd_flash", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isProduction,
    path: "/",
    maxAge: 60,
    secrets: [config.authSecret],
  });
}

/** Redirects to `to` and shows `toast` there; `init.headers` (such as session cookies) are kept. */
export async function redirectWithToast(to: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie().serialize({ ...toast, id: randomUUID() }));
  return redirect(to, { ...init, headers });
}

/** Reads the pending toast and the header that clears it. */
export async function takeToast(
  request: Request,
): Promise<{ toast: PendingToast | null; header?: string }> {
  const cookie = toastCookie();
  const value = (await cookie.parse(request.headers.get("Cookie"))) as PendingToast | null;
  if (!value) return { toast: null };
  return { toast: value, header: await cookie.serialize("", { maxAge: 0 }) };
}
