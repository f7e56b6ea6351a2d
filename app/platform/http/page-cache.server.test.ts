import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPageCache,
  PUBLIC_PAGE_CACHE_CONTROL,
  privateWhenPersonal,
} from "./page-cache.server";

let base = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(privateWhenPersonal);
  app.get("/pagina", (_req, res) => {
    res.type("html").send("<p>hola</p>");
  });
  app.get("/sitemap.xml", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.type("xml").send("<urlset/>");
  });
  app.post("/formulario", (_req, res) => {
    res.cookie("vd_flash", "aviso").redirect(303, "/pagina");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

const cacheControl = async (path: string, init: RequestInit = {}) =>
  (await fetch(`${base}${path}`, { redirect: "manual", ...init })).headers.get("cache-control");

describe("pages served to a signed-in visitor", () => {
  it.each(["vd.session_token=abc", "__Secure-vd.session_token=abc", "otra=1; vd_flash=x"])(
    "are private and never stored with the cookie %s, whatever the route said",
    async (cookie) => {
      expect(await cacheControl("/pagina", { headers: { cookie } })).toBe("private, no-store");
      expect(await cacheControl("/sitemap.xml", { headers: { cookie } })).toBe("private, no-store");
    },
  );

  it("leave an anonymous visitor's answers as the route made them", async () => {
    expect(await cacheControl("/pagina")).toBeNull();
    expect(await cacheControl("/sitemap.xml", { headers: { cookie: "otra=1" } })).toBe(
      "public, max-age=3600",
    );
  });

  it("include an answer that sets a cookie, such as a sign-in", async () => {
    expect(await cacheControl("/formulario", { method: "POST" })).toBe("private, no-store");
  });
});

describe("public pages through the page cache", () => {
  let cacheBase = "";
  /** The same app and cache, with hits answered before Express (as server.ts does). */
  let earlyBase = "";
  let closeCache: () => void = () => undefined;

  beforeAll(async () => {
    const app = express();
    app.disable("x-powered-by");
    // As React Router's handler, which writes its answers without Express's own ETag.
    app.set("etag", false);
    // As the site's security headers: every answer starts with its own nonce policy.
    app.use((_req, res, next) => {
      res.setHeader("Content-Security-Policy", "script-src 'nonce-fresco'");
      next();
    });
    const cache = createPageCache({
      paths: ["/", "/saludo", "/galleta", "/azar", "/campana"],
      isProduction: true,
    });
    app.use(cache.serve);
    app.use(compression());
    app.use(privateWhenPersonal);
    app.use(cache.capture);
    app.get("/", (_req, res) => {
      res.type("html").send(`<p>${"portada ".repeat(200)}</p><script>1</script>`);
    });
    app.get("/saludo", (_req, res) => {
      res.type("html").send(`<p>${"hola ".repeat(200)}</p>`);
    });
    app.get("/campana", (_req, res) => {
      res.type("html").send(`<p>${"oferta ".repeat(200)}</p>`);
    });
    // Every render differs, as each carries its own nonce.
    app.get("/azar", (_req, res) => {
      const words = Array.from({ length: 8_000 }, () => Math.random().toString(36).slice(2, 7));
      res.type("html").send(`<p>${words.join(" ")}</p>`);
    });
    // A public page whose render sets a cookie (a flash being cleared, say).
    app.get("/galleta", (_req, res) => {
      res.cookie("vd_flash", "", { maxAge: 0 }).type("html").send("<p>galleta</p>");
    });
    const listen = async (server: Server) => {
      server.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const server = createServer(app);
    const early = createServer((req, res) => {
      if (!cache.answer(req, res)) void app(req, res);
    });
    cacheBase = await listen(server);
    earlyBase = await listen(early);
    closeCache = () => {
      server.close();
      early.close();
    };
  });

  afterAll(() => closeCache());

  /** node:http, so that nothing decodes the body or adds headers of its own. */
  async function get(path: string, headers: Record<string, string> = {}, base = cacheBase) {
    const { request } = await import("node:http");
    return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
      (resolve, reject) => {
        const req = request(`${base}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers as Record<string, string>,
              body: Buffer.concat(chunks),
            }),
          );
        });
        req.on("error", reject);
        req.end();
      },
    );
  }

  async function cached(path: string, headers: Record<string, string> = {}) {
    await get(path);
    await expect.poll(async () => (await get(path)).headers["x-page-cache"]).toBe("hit");
    return get(path, headers);
  }

  it("leave the first render, whose bytes are not the cached ones, unmarked", async () => {
    const first = await get("/saludo", { "accept-encoding": "gzip" });
    expect(first.headers["x-page-cache"]).toBeUndefined();
    expect(first.headers["cache-control"]).toBeUndefined();
    expect(first.headers.etag).toBeUndefined();
  });

  it("carry a strong ETag of the exact bytes of each encoding", async () => {
    const variants = await Promise.all(
      ["br", "gzip", "identity"].map((encoding) => cached("/", { "accept-encoding": encoding })),
    );
    for (const answer of variants) {
      expect(answer.status).toBe(200);
      expect(answer.headers["cache-control"]).toBe(
        "public, max-age=0, s-maxage=60, stale-while-revalidate=600",
      );
      expect(answer.headers.vary).toBe("Accept-Encoding, Cookie");
      const hash = createHash("sha256").update(answer.body).digest("base64url").slice(0, 32);
      expect(answer.headers.etag).toBe(`"${hash}"`);
    }
    expect(new Set(variants.map((answer) => answer.headers.etag)).size).toBe(3);
    expect(variants.map((answer) => answer.headers["content-encoding"])).toEqual([
      "br",
      "gzip",
      undefined,
    ]);
    // `br;q=0` refuses brotli.
    expect(
      (await get("/", { "accept-encoding": "br;q=0, gzip" })).headers["content-encoding"],
    ).toBe("gzip");
  });

  it("answer 304 without a body to a matching If-None-Match", async () => {
    const { headers } = await cached("/", { "accept-encoding": "br" });
    for (const ifNoneMatch of [
      headers.etag!,
      `W/${headers.etag}`,
      `"otro", ${headers.etag}`,
      "*",
    ]) {
      const again = await get("/", { "accept-encoding": "br", "if-none-match": ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(headers.etag);
      expect(again.headers["cache-control"]).toBe(PUBLIC_PAGE_CACHE_CONTROL);
      // A 304 updates the browser's stored headers: the stored page's policy (its scripts'
      // hashes), never this answer's fresh nonce, or a reload blocks the page's scripts.
      expect(again.headers["content-security-policy"]).toBe(headers["content-security-policy"]);
      expect(again.headers["content-security-policy"]).not.toContain("nonce-fresco");
    }
    // Another encoding's tag does not match: those are other bytes.
    const gzip = await get("/", { "accept-encoding": "gzip", "if-none-match": headers.etag! });
    expect(gzip.status).toBe(200);
    expect(gzip.body.length).toBeGreaterThan(0);
  });

  it("keep the first stored render when several misses race, so the ETag never changes", async () => {
    await Promise.all(Array.from({ length: 8 }, () => get("/azar", { "accept-encoding": "br" })));
    // The first stored render, as soon as there is one.
    let first = await get("/azar", { "accept-encoding": "br" });
    while (first.headers["x-page-cache"] !== "hit")
      first = await get("/azar", { "accept-encoding": "br" });
    const { headers } = first;
    for (let check = 0; check < 20; check++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect((await get("/azar", { "accept-encoding": "br" })).headers.etag).toBe(headers.etag);
    }
  });

  it("serve a page asked for with any query from the page's one entry", async () => {
    const page = await cached("/saludo", { "accept-encoding": "br" });
    for (const query of ["?utm_source=x&fbclid=y", "?gclid=1", "?comprar=ciberseguridad", "?"]) {
      const answer = await get(`/saludo${query}`, { "accept-encoding": "br" });
      expect(answer.headers["x-page-cache"], query).toBe("hit");
      expect(answer.headers.etag, query).toBe(page.headers.etag);
      expect(answer.body.equals(page.body), query).toBe(true);
    }
    // The first render may come with a query: the entry is the page's all the same.
    expect((await get("/campana?utm_campaign=primera")).headers["x-page-cache"]).toBeUndefined();
    await expect.poll(async () => (await get("/campana")).headers["x-page-cache"]).toBe("hit");
    // A path that is not a public page is never served from the cache, query or not.
    expect((await get("/saludo/otra?utm_source=x")).headers["x-page-cache"]).toBeUndefined();
  });

  it("are private, without ETag, to a signed-in visitor or one with a flash", async () => {
    await cached("/");
    for (const cookie of ["vd.session_token=abc", "__Secure-vd.session_token=abc", "vd_flash=x"]) {
      const personal = await get("/", { cookie });
      expect(personal.headers["cache-control"]).toBe("private, no-store");
      expect(personal.headers.etag).toBeUndefined();
      expect(personal.headers["x-page-cache"]).toBeUndefined();
    }
  });

  it("carry the security headers, the page's policy and the cache's headers, and nothing else", async () => {
    for (const base of [cacheBase, earlyBase]) {
      for (const encoding of ["br", "identity"]) {
        await cached("/");
        const hit = await get("/", { "accept-encoding": encoding }, base);
        expect(hit.headers["x-page-cache"]).toBe("hit");
        expect(Object.keys(hit.headers).sort()).toEqual(
          [
            // The security headers of every answer (headers.server.ts), HSTS in production.
            "content-security-policy",
            "cross-origin-opener-policy",
            "permissions-policy",
            "referrer-policy",
            "strict-transport-security",
            "x-content-type-options",
            // The cache's, and the body's.
            "cache-control",
            "etag",
            "vary",
            "x-page-cache",
            "content-type",
            ...(encoding === "identity" ? [] : ["content-encoding"]),
            "content-length",
            // Node's own.
            "date",
            "connection",
            "keep-alive",
          ].sort(),
        );
        expect(hit.headers["x-frame-options"]).toBeUndefined();
      }
    }
  });

  it("answer before Express with the same bytes and headers as through it, 304 included", async () => {
    const throughExpress = await cached("/", { "accept-encoding": "gzip" });
    const early = await get("/", { "accept-encoding": "gzip" }, earlyBase);
    expect(early.status).toBe(200);
    expect(early.body.equals(throughExpress.body)).toBe(true);
    expect({ ...early.headers, date: "" }).toEqual({ ...throughExpress.headers, date: "" });
    const notModified = await get(
      "/",
      { "accept-encoding": "gzip", "if-none-match": early.headers.etag! },
      earlyBase,
    );
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers["content-security-policy"]).toBe(
      early.headers["content-security-policy"],
    );
    expect(notModified.headers["cache-control"]).toBe(PUBLIC_PAGE_CACHE_CONTROL);
    // Misses, other methods and personal visitors are left to Express.
    expect((await get("/saludo/otra", {}, earlyBase)).headers["x-page-cache"]).toBeUndefined();
    const personal = await get("/", { cookie: "vd.session_token=abc" }, earlyBase);
    expect(personal.headers["x-page-cache"]).toBeUndefined();
    expect(personal.headers["cache-control"]).toBe("private, no-store");
  });

  it("allow a page's inline scripts by their hashes, and a page without any by 'self' alone", async () => {
    const withScript = await cached("/");
    expect(withScript.headers["content-security-policy"]).toContain(
      `script-src 'self' 'sha256-${createHash("sha256").update("1").digest("base64")}';`,
    );
    const withoutScript = await cached("/saludo");
    expect(withoutScript.headers["content-security-policy"]).toContain("script-src 'self';");
    for (const answer of [withScript, withoutScript])
      expect(answer.headers["content-security-policy"]).not.toContain("nonce-fresco");
  });

  it("are never public when their render sets a cookie", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await get("/galleta");
      expect(answer.headers["set-cookie"]).toBeDefined();
      expect(answer.headers["cache-control"]).toBe("private, no-store");
      expect(answer.headers["x-page-cache"]).toBeUndefined();
    }
  });
});
