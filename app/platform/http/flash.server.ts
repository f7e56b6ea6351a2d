import { randomUUID } from "node:crypto";
import { createCookie } from "react-router";
import { getConfig } from "../config.server";

/** A toast to show on the next page, carried across a redirect in a short-lived signed cookie. */
export type Flash = {
  id: string;
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
};

function flashCookie() {
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

export async function flashHeader(flash: Omit<Flash, "id">): Promise<string> {
  return flashCookie().serialize({ ...flash, id: randomUUID() });
}

/** Reads the pending flash and the header that clears it. */
export async function takeFlash(
  request: Request,
): Promise<{ flash: Flash | null; header?: string }> {
  const cookie = flashCookie();
  const value = (await cookie.parse(request.headers.get("Cookie"))) as Flash | null;
  if (!value) return { flash: null };
  return { flash: value, header: await cookie.serialize("", { maxAge: 0 }) };
}
