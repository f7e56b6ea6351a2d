import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { solveHumanCheck } from "../support/human-check";

test("a fresh render carries the security headers and a per-response nonce", async ({
  request,
}) => {
  const first = await request.get("/login-cliente");
  const second = await request.get("/login-cliente");
  const headers = first.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[\w+/=]+'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  // frame-ancestors 'none' is the one word on framing (decision 041).
  expect(headers["x-frame-options"]).toBeUndefined();
  expect(headers["x-request-id"]).toMatch(/^[\w-]+$/);
  expect(second.headers()["content-security-policy"]).not.toBe(headers["content-security-policy"]);
  const html = await first.text();
  const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"]!)![1];
  // Every inline script carries the nonce of its own response.
  const scripts = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")([^>]*)>/g)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const [, attributes] of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
});

test("a cached public page allows exactly its inline scripts by hash", async ({ request }) => {
  await request.get("/precios");
  await expect
    .poll(async () => (await request.get("/precios")).headers()["x-page-cache"])
    .toBe("hit");
  const cached = await request.get("/precios");
  const policy = cached.headers()["content-security-policy"]!;
  expect(policy).not.toContain("nonce-");
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
  const html = await cached.text();
  const { createHash } = await import("node:crypto");
  const inline = [
    ...html.matchAll(
      /<script(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g,
    ),
  ];
  for (const [, body] of inline) {
    expect(policy).toContain(`'sha256-${createHash("sha256").update(body!).digest("base64")}'`);
  }
  // A light page (decision 038) runs no inline script: its policy allows our files alone.
  if (inline.length === 0) expect(policy).toContain("script-src 'self';");
});

test("a visitor with a session cookie never gets the cached page", async ({ request }) => {
  await request.get("/");
  const personal = await request.get("/", { headers: { Cookie: "vd.session_token=anything" } });
  expect(personal.headers()["x-page-cache"]).toBeUndefined();
  expect(personal.headers()["content-security-policy"]).toContain("nonce-");
});

test("health, readiness, sitemap and robots answer 200", async ({ request, baseURL }) => {
  expect((await request.get("/healthz")).status()).toBe(200);
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toContain("application/xml");
  const xml = await sitemap.text();
  for (const path of ["/", "/precios", "/ciberseguridad", "/terminos", "/aviso-legal"]) {
    expect(xml).toContain(`<loc>${baseURL}${path}</loc>`);
  }
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test("pages are compressed and hashed assets are cached for a year", async ({ request }) => {
  const page = await request.get("/precios", { headers: { "Accept-Encoding": "br, gzip" } });
  expect(page.headers()["content-encoding"]).toMatch(/br|gzip/);
  const asset = /\/assets\/[\w.-]+\.js/.exec(await page.text())?.[0];
  expect(asset).toBeTruthy();
  const assetResponse = await request.get(asset!);
  expect(assetResponse.status()).toBe(200);
  expect(assetResponse.headers()["cache-control"]).toContain("immutable");
  expect(assetResponse.headers()["cache-control"]).toContain("max-age=31536000");
});

test("a request body over 64 KB is refused with 413", async ({ request }) => {
  const response = await request.post("/", {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: `message=${"a".repeat(70 * 1024)}`,
  });
  expect(response.status()).toBe(413);
});

test("a request body of unknown length is refused with 411", async ({ baseURL }) => {
  const { request } = await import("node:http");
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      `${baseURL}/contacto`,
      { method: "POST", headers: { "Transfer-Encoding": "chunked" } },
      (res) => resolve(res.statusCode ?? 0),
    );
    req.on("error", reject);
    req.write("name=a");
    req.end();
  });
  expect(status).toBe(411);
});

test("a form posted from another site is refused with 403", async ({ request, baseURL }) => {
  const form = {
    name: "Ana García",
    email: "ana@example.com",
    service: "ia",
    message: "Mensaje de prueba.",
  };
  const foreign = await request.post("/contacto", {
    form,
    headers: { Origin: "https://evil.example" },
  });
  expect(foreign.status()).toBe(403);
  const crossSite = await request.post("/contacto", {
    form,
    headers: { "Sec-Fetch-Site": "cross-site" },
  });
  expect(crossSite.status()).toBe(403);
  // Ours also carries the proof of work the form's widget would have solved.
  const challenge = await (await request.get("/api/altcha/challenge")).json();
  const ours = await request.post("/contacto", {
    form: { ...form, altcha: await solveHumanCheck(challenge) },
    headers: { Origin: new URL(baseURL!).origin },
  });
  expect(ours.status()).toBe(200);
});

test("the contact form's JSON answer before Express is the one the long way gives", async ({
  request,
  baseURL,
}) => {
  // /api/contacto is answered before Express and React Router (decision 046); with a query
  // string the same post goes the long way through every middleware and the route's action.
  const origin = new URL(baseURL!).origin;
  const refused = { name: "A", email: "no-es-un-correo", service: "ia", message: "Corto" };
  const signedIn = "vd.session_token=not-a-real-session";
  for (const cookie of [undefined, signedIn]) {
    const headers = { Origin: origin, ...(cookie ? { Cookie: cookie } : {}) };
    const early = await request.post("/api/contacto", { form: refused, headers });
    const long = await request.post("/api/contacto?camino=largo", { form: refused, headers });
    expect(early.status()).toBe(400);
    expect(long.status()).toBe(400);
    expect(await early.json()).toEqual(await long.json());
    const [a, b] = [early.headers(), long.headers()];
    for (const name of [
      "content-type",
      "vary",
      "x-content-type-options",
      "referrer-policy",
      "cross-origin-opener-policy",
      "permissions-policy",
      "cache-control",
    ])
      expect([name, a[name]]).toEqual([name, b[name]]);
    // A fresh nonce and request id on each answer, as every answer of the site has.
    const policy = (csp: string | undefined) => csp?.replace(/'nonce-[^']+'/, "'nonce'");
    expect(policy(a["content-security-policy"])).toBe(policy(b["content-security-policy"]));
    expect(a["content-security-policy"]).toMatch(/'nonce-[\w+/=]+'/);
    expect(a["x-request-id"]).toMatch(/^[\w-]+$/);
    expect(a["cache-control"]).toBe(cookie ? "private, no-store" : undefined);
  }

  // What a middleware refuses is still refused: another site, a body too large, no length.
  const fromElsewhere = await request.post("/api/contacto", {
    form: refused,
    headers: { Origin: "https://evil.example" },
  });
  expect(fromElsewhere.status()).toBe(403);
  const tooLarge = await request.post("/api/contacto", {
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    data: `message=${"a".repeat(70 * 1024)}`,
  });
  expect(tooLarge.status()).toBe(413);

  // And an enquiry with its proof of work is stored and answered as sent.
  const challenge = await (await request.get("/api/altcha/challenge")).json();
  const sent = await request.post("/api/contacto", {
    form: {
      name: "Ana García",
      email: "ana.camino@example.com",
      service: "ia",
      message: "Quisiera saber más sobre vuestros servicios.",
      altcha: await solveHumanCheck(challenge),
    },
    headers: { Origin: origin },
  });
  expect(sent.status()).toBe(200);
  expect(await sent.json()).toEqual({ notice: "sent" });
});

test("the built server holds the AEAT stand-in apart, loaded only without a certificate", () => {
  // Its validations' texts live in a chunk of their own, which production never imports.
  const refusal = "el bloque Destinatarios no puede estar cumplimentado";
  const server = path.resolve("build/server");
  expect(readFileSync(path.join(server, "index.js"), "utf8")).not.toContain(refusal);
  const chunks = readdirSync(path.join(server, "assets")).filter((name) =>
    readFileSync(path.join(server, "assets", name), "utf8").includes(refusal),
  );
  expect(chunks).toEqual([expect.stringMatching(/^aeat-stand-in\.server-[\w-]+\.js$/)]);
});
