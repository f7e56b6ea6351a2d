import { request as httpRequest } from "node:http";
import type { APIRequestContext } from "@playwright/test";
import { createVerifiedCustomer } from "./accounts-helpers";
import { expect, test } from "./fixtures";

/**
 * What shared caches are told (decision 022): anonymous public pages are public with a short
 * s-maxage and a strong ETag answered with 304; whatever a signed-in visitor, or one carrying a
 * flash, is served is private and never stored. And one URL per page: no trailing slashes.
 */

const PUBLIC = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

async function cachedAnswer(request: APIRequestContext, path: string, encoding: string) {
  const headers = { "Accept-Encoding": encoding };
  await request.get(path, { headers });
  await expect
    .poll(async () => (await request.get(path, { headers })).headers()["x-page-cache"])
    .toBe("hit");
  return request.get(path, { headers });
}

test("anonymous public pages are public, with a strong ETag per encoding answered with 304", async ({
  request,
}) => {
  const etags = new Set<string>();
  for (const encoding of ["br", "gzip", "identity"]) {
    const page = await cachedAnswer(request, "/precios", encoding);
    const headers = page.headers();
    expect(headers["cache-control"]).toBe(PUBLIC);
    expect(headers.vary).toBe("Accept-Encoding, Cookie");
    expect(headers.etag).toMatch(/^"[\w-]{20,}"$/);
    etags.add(headers.etag!);
    const again = await request.get("/precios", {
      headers: { "Accept-Encoding": encoding, "If-None-Match": headers.etag! },
    });
    expect(again.status()).toBe(304);
    expect((await again.body()).length).toBe(0);
    expect(again.headers().etag).toBe(headers.etag);
  }
  expect(etags.size).toBe(3);
  // A stale tag gets the page.
  const changed = await request.get("/precios", { headers: { "If-None-Match": '"antiguo"' } });
  expect(changed.status()).toBe(200);
  expect(await changed.text()).toContain("</html>");
});

test("a cached public page carries the security headers and the cache's, and nothing else", async ({
  request,
}) => {
  const headers = (await cachedAnswer(request, "/", "br")).headers();
  // What the browser enforces: the page's own policy (no nonce of another render), no framing.
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).not.toContain("nonce-");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
  // What no browser needs there (decision 041): X-Frame-Options says what frame-ancestors says,
  // and a hit is not logged, so it has no request id to quote.
  expect(Object.keys(headers).sort()).toEqual(
    [
      "content-security-policy",
      "x-content-type-options",
      "referrer-policy",
      "cross-origin-opener-policy",
      "permissions-policy",
      "cache-control",
      "etag",
      "vary",
      "x-page-cache",
      "content-type",
      "content-encoding",
      "content-length",
      "date",
      "connection",
      "keep-alive",
    ].sort(),
  );
});

test("pages that are not the same for everyone are never public", async ({ request }) => {
  for (const path of ["/login-cliente", "/contacto", "/no-existe"]) {
    const headers = (await request.get(path)).headers();
    expect(headers["cache-control"] ?? "").not.toContain("public");
    expect(headers.etag).toBeUndefined();
  }
});

test("a signed-in visitor, and then one carrying a flash, get private pages that are never stored", async ({
  page,
  baseURL,
}) => {
  // Warm the cache first: it must not be what a signed-in visitor gets.
  await cachedAnswer(page.request, "/", "br");
  await createVerifiedCustomer(page);
  for (const path of ["/", "/precios", "/mi-cuenta"]) {
    const signedIn = await page.request.get(path);
    expect(signedIn.status()).toBe(200);
    expect(signedIn.headers()["cache-control"]).toBe("private, no-store");
    expect(signedIn.headers()["x-page-cache"]).toBeUndefined();
    expect(signedIn.headers().etag).toBeUndefined();
  }
  expect(await (await page.request.get("/")).text()).toContain("Mi Cuenta");

  // Signing out sets cookies (the session cleared, the flash set): never public either.
  const signedOut = await page.request.post("/cerrar-sesion", {
    headers: { Origin: new URL(baseURL!).origin },
    maxRedirects: 0,
  });
  expect(signedOut.status()).toBe(302);
  expect(signedOut.headers()["set-cookie"]).toContain("vd_flash=");
  expect(signedOut.headers()["cache-control"]).toBe("private, no-store");
  const cookies = await page.context().cookies();
  expect(cookies.some((cookie) => cookie.name === "vd_flash")).toBe(true);
  expect(cookies.some((cookie) => cookie.name.includes("session_token"))).toBe(false);

  // The page that shows the flash is private, and so is its answer clearing it.
  const withFlash = await page.request.get("/");
  expect(withFlash.headers()["cache-control"]).toBe("private, no-store");
  expect(withFlash.headers()["x-page-cache"]).toBeUndefined();
  expect(withFlash.headers().etag).toBeUndefined();
  expect(withFlash.headers()["set-cookie"]).toContain("vd_flash=;");

  // Shown once: the flash is gone. (The address kept since sign-up still makes pages private.)
  const left = (await page.context().cookies()).map((cookie) => cookie.name);
  expect(left).not.toContain("vd_flash");
  await page.context().clearCookies({ name: "vd_pending_email" });
  const anonymous = await page.request.get("/", { headers: { "Accept-Encoding": "br" } });
  expect(anonymous.headers()["cache-control"]).toBe(PUBLIC);
  expect(anonymous.headers()["x-page-cache"]).toBe("hit");
});

/** The raw request target (Playwright would read `//evil.com/` as another host). */
function rawGet(baseURL: string, target: string) {
  const { hostname, port } = new URL(baseURL);
  return new Promise<{ status: number; location?: string }>((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: target }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    });
    req.on("error", reject);
    req.end();
  });
}

test("a path with a trailing slash answers 301 to the path without it, never to another host", async ({
  baseURL,
}) => {
  const cases: Array<[string, string]> = [
    ["/precios/", "/precios"],
    ["/terminos/", "/terminos"],
    ["/ciberseguridad/?utm_source=boletin&x=1", "/ciberseguridad?utm_source=boletin&x=1"],
    ["//evil.com/", "/evil.com"],
    ["/\\evil.com/", "/evil.com"],
    ["///evil.com//?a=b", "/evil.com?a=b"],
  ];
  for (const [from, to] of cases) {
    const answer = await rawGet(baseURL!, from);
    expect(answer, from).toEqual({ status: 301, location: to });
    expect(new URL(answer.location!, baseURL).origin).toBe(new URL(baseURL!).origin);
  }
  expect((await rawGet(baseURL!, "/")).status).toBe(200);
  expect((await rawGet(baseURL!, "/precios")).status).toBe(200);
});

test("the redirect leads to the page", async ({ page }) => {
  const response = await page.goto("/terminos/?seccion=1");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/terminos\?seccion=1$/);
});
