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
