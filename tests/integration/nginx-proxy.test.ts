import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet, startCachingProxy } from "../../bench/load";

/**
 * deploy/nginx.conf, the reverse proxy shipped with compose.yaml, run by the Debian nginx in
 * front of two stand-in instances that count what reaches them (decision 022). Only its
 * upstreams, listen address and cache folder are changed.
 */

const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const PUBLIC = "public, max-age=0, s-maxage=60, stale-while-revalidate=600";

type Seen = { instance: string; path: string; headers: Record<string, string | undefined> };
const seen: Seen[] = [];

/** Visitors asking at once for a page nginx may not keep (as /login-cliente is). */
const AT_ONCE = 4;
/** Requests for /privada-lenta being answered now, on either instance, and the most at once. */
let slowInFlight = 0;
let slowMostAtOnce = 0;
const slowWaiting: Array<() => void> = [];
const servers: Array<{ close(): void }> = [];
let proxy: { url: string; stop(): void };

function standIn(instance: string) {
  const app = express();
  app.set("etag", false);
  app.use((req, _res, next) => {
    seen.push({
      instance,
      path: req.path,
      headers: {
        "x-forwarded-for": req.get("x-forwarded-for"),
        "x-forwarded-proto": req.get("x-forwarded-proto"),
        "x-forwarded-host": req.get("x-forwarded-host"),
        host: req.get("host"),
        "accept-encoding": req.get("accept-encoding"),
        cookie: req.get("cookie"),
        "x-request-id": req.get("x-request-id"),
      },
    });
    next();
  });
  // As the app's page cache: public, one ETag per encoding; the body says who answered.
  app.get(/^\/publica/, (req, res) => {
    const encoding = req.get("accept-encoding") ?? "identity";
    res.set({
      "Cache-Control": PUBLIC,
      ETag: `"${req.path.slice(1)}-${encoding}"`,
      Vary: "Accept-Encoding, Cookie",
      "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
      "X-Page-Cache": "hit",
    });
    if (req.get("if-none-match") === `"${req.path.slice(1)}-${encoding}"`) {
      res.status(304).end();
      return;
    }
    res.type("html").send(`${instance} ${req.path} ${encoding}`);
  });
  app.get("/breve", (_req, res) => {
    res.set("Cache-Control", "public, max-age=0, s-maxage=1, stale-while-revalidate=600");
    res.type("html").send(`${instance} breve ${seen.length}`);
  });
  app.get("/privada", (_req, res) => {
    res.set("Cache-Control", "private, no-store").type("html").send(`${instance} privada`);
  });
  // A public page whose answer sets a cookie: never stored.
  app.get("/galleta", (_req, res) => {
    res.set("Cache-Control", PUBLIC).cookie("vd_flash", "", { maxAge: 0 }).send(instance);
  });
  // Answers when AT_ONCE requests for it are in at the same time, or after 3 s.
  app.get("/privada-lenta", (_req, res) => {
    slowMostAtOnce = Math.max(slowMostAtOnce, ++slowInFlight);
    const answer = () => {
      slowInFlight--;
      res.set("Cache-Control", "private, no-store").type("html").send(instance);
    };
    slowWaiting.push(answer);
    if (slowInFlight >= AT_ONCE) for (const release of slowWaiting.splice(0)) release();
    else
      setTimeout(() => {
        if (slowWaiting.includes(answer)) slowWaiting.splice(slowWaiting.indexOf(answer), 1);
        else return;
        answer();
      }, 3_000);
  });
  // As the app's answer to '//host/…' or a trailing slash: a redirect that echoes the path.
  app.get(/^\/eco\//, (req, res) => {
    res.set("Content-Security-Policy", `default-src 'self'; script-src 'nonce-${"n".repeat(24)}'`);
    res.redirect(301, req.originalUrl.slice("/eco".length));
  });
  app.get("/sin-cabeceras", (_req, res) => {
    res.type("html").send(instance);
  });
  // One instance is shutting down.
  app.all("/a-medias", (req, res) => {
    if (instance === "a") res.status(503).set("Connection", "close").send("a cerrando");
    else res.send(`${instance} ${req.method}`);
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  return new Promise<string>((resolve) =>
    server.once("listening", () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

const reached = (path: string) => seen.filter((entry) => entry.path === path);
const get = (path: string, headers: Record<string, string> = {}) =>
  rawGet(`${proxy.url}${path}`, headers);

describe.skipIf(!existsSync(NGINX))("the shipped nginx", () => {
  beforeAll(async () => {
    proxy = await startCachingProxy([await standIn("a"), await standIn("b")]);
  });

  afterAll(() => {
    proxy?.stop();
    for (const server of servers) server.close();
  });

  it("spreads requests over both instances, round-robin", async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await get("/sin-cabeceras")).body.toString());
    expect(new Set(answers)).toEqual(new Set(["a", "b"]));
    // Nothing told it the answer was public: never stored.
    expect(reached("/sin-cabeceras")).toHaveLength(4);
  });

  it("keeps a public page and answers it from the cache, 304 included", async () => {
    const first = await get("/publica-1", { "accept-encoding": "br" });
    expect(first.headers["x-cache-status"]).toBe("MISS");
    const again = await get("/publica-1", { "accept-encoding": "br" });
    expect(again.headers["x-cache-status"]).toBe("HIT");
    expect(again.body.toString()).toBe(first.body.toString());
    expect(again.headers["cache-control"]).toBe(PUBLIC);
    expect(again.headers.vary).toBe("Accept-Encoding, Cookie");
    // The page's own headers reach the browser; the app's mark of its page cache does not.
    for (const answer of [first, again]) {
      expect(answer.headers["content-security-policy"]).toBe(
        "default-src 'self'; frame-ancestors 'none'",
      );
      expect(answer.headers["x-page-cache"]).toBeUndefined();
    }
    const notModified = await get("/publica-1", {
      "accept-encoding": "br",
      "if-none-match": again.headers.etag!,
    });
    expect(notModified.status).toBe(304);
    expect(reached("/publica-1")).toHaveLength(1);
  });

  it("keys by a normalised encoding, which is also what the instance is asked for", async () => {
    const browsers: Array<[string, string]> = [
      ["gzip, deflate, br, zstd", "br"],
      ["br", "br"],
      ["gzip, deflate", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["BR;q=0.5", "br"],
      ["identity", "identity"],
      ["", "identity"],
    ];
    for (const [acceptEncoding, body] of browsers) {
      const answer = await get("/publica-2", { "accept-encoding": acceptEncoding });
      expect(answer.body.toString(), acceptEncoding).toMatch(new RegExp(` ${body}$`));
    }
    // br, gzip and none: three entries, filled once each.
    expect(reached("/publica-2").map((entry) => entry.headers["accept-encoding"] ?? "")).toEqual([
      "br",
      "gzip",
      "",
    ]);
  });

  it("is bypassed both ways by the session cookie and every other cookie of the site", async () => {
    const personal = [
      "vd.session_token=abc",
      "tema=oscuro; __Secure-vd.session_token=abc",
      "vd_flash=aviso",
      "vd_pending_email=x",
    ];
    for (const [index, cookie] of personal.entries()) {
      const path = `/publica-personal-${index}`;
      const signedIn = await get(path, { cookie });
      expect(signedIn.headers["x-cache-status"], cookie).toBe("BYPASS");
      // Not filled by that visitor: the next anonymous request still reaches an instance.
      expect((await get(path)).headers["x-cache-status"]).toBe("MISS");
      expect((await get(path)).headers["x-cache-status"]).toBe("HIT");
      // Not read for them either, though the page is in the cache now.
      expect((await get(path, { cookie })).headers["x-cache-status"]).toBe("BYPASS");
      expect(reached(path).filter((entry) => entry.headers.cookie === cookie)).toHaveLength(2);
    }
    // Someone else's cookie is no reason to skip the cache.
    await get("/publica-3");
    expect((await get("/publica-3", { cookie: "tema=oscuro" })).headers["x-cache-status"]).toBe(
      "HIT",
    );
  });

  it("never stores a private answer or one that sets a cookie", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await get("/privada")).headers["x-cache-status"]).toBe("MISS");
      const withCookie = await get("/galleta");
      expect(withCookie.headers["set-cookie"]).toBeDefined();
      expect(withCookie.headers["x-cache-status"]).toBe("MISS");
    }
    expect(reached("/privada")).toHaveLength(3);
    expect(reached("/galleta")).toHaveLength(3);
  });

  it("lets visitors who ask at once for a page it may not keep reach the app together", async () => {
    // With nginx's cache lock each waited for the one before, in steps of 0.5 s: the sixth of
    // six visitors opening /login-cliente together waited 2.5 s.
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => get("/privada-lenta")));
    expect(answers.map((answer) => answer.status)).toEqual(Array(AT_ONCE).fill(200));
    expect(slowMostAtOnce).toBe(AT_ONCE);
  });

  it("tells the instance the client's address, never one the client wrote, and the scheme", async () => {
    await get("/sin-cabeceras", { "x-forwarded-for": "203.0.113.9" });
    const last = reached("/sin-cabeceras").at(-1)!;
    expect(last.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(last.headers["x-forwarded-proto"]).toBe("http");
  });

  it("gives every request its own id, never one the client wrote, and keeps /metrics to itself", async () => {
    await get("/identificada", { "x-request-id": "forjado-por-un-cliente" });
    await get("/identificada");
    const ids = reached("/identificada").map((entry) => entry.headers["x-request-id"]);
    // nginx's $request_id: 32 hexadecimal digits, new for each request (decision 049).
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
    // Prometheus scrapes the instances directly; through the proxy there is nothing to see.
    expect((await get("/metrics")).status).toBe(404);
    expect(reached("/metrics")).toHaveLength(0);
  });

  it("tells the instance the host it validated itself, never the client's X-Forwarded-Host", async () => {
    await get("/anfitrion", { "x-forwarded-host": "evil.com" });
    await get("/anfitrion", { host: "www.example.es", "x-forwarded-host": "a b" });
    expect(reached("/anfitrion").map((entry) => entry.headers["x-forwarded-host"])).toEqual([
      "127.0.0.1",
      "www.example.es",
    ]);
    // A Host that is no host never reaches an instance.
    expect((await get("/anfitrion-malo", { host: "a b" })).status).toBe(400);
    expect(reached("/anfitrion-malo")).toHaveLength(0);
  });

  it("serves a public page asked for with a campaign's query from the page's entry", async () => {
    const page = await get("/publica-campana", { "accept-encoding": "br" });
    expect(page.headers["x-cache-status"]).toBe("MISS");
    for (const query of ["?utm_source=x&fbclid=y", "?gclid=1", "?comprar=ciberseguridad"]) {
      const answer = await get(`/publica-campana${query}`, { "accept-encoding": "br" });
      expect(answer.headers["x-cache-status"], query).toBe("HIT");
      expect(answer.body.toString(), query).toBe(page.body.toString());
    }
    expect(reached("/publica-campana")).toHaveLength(1);
  });

  it("keeps the https of a load balancer that ends TLS in front of it, and nothing else", async () => {
    await get("/tras-balanceador", { "x-forwarded-proto": "https" });
    expect(reached("/tras-balanceador").at(-1)!.headers["x-forwarded-proto"]).toBe("https");
    await get("/esquema-raro", { "x-forwarded-proto": "javascript" });
    expect(reached("/esquema-raro").at(-1)!.headers["x-forwarded-proto"]).toBe("http");
  });

  it("serves a page stale while it refreshes it in the background, then the new page", async () => {
    const first = (await get("/breve")).body.toString();
    expect((await get("/breve")).headers["x-cache-status"]).toBe("HIT");
    // nginx counts whole seconds: the first answer that is not a hit, within about two.
    let status = "HIT";
    for (let wait = 0; status === "HIT" && wait < 40; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await get("/breve")).headers["x-cache-status"]!;
    }
    expect(status).toBe("STALE");
    await expect.poll(async () => (await get("/breve")).headers["x-cache-status"]).toBe("HIT");
    expect(reached("/breve").length).toBe(2);
    // The refreshed entry's file, never the old one whose descriptor nginx keeps open
    // (open_file_cache): every hit from now on is the second render.
    const refreshed = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const answer = await get("/breve");
      expect(answer.headers["x-cache-status"]).toBe("HIT");
      refreshed.add(answer.body.toString());
    }
    expect(refreshed.size).toBe(1);
    expect(refreshed.has(first)).toBe(false);
  });

  it("never retries a POST elsewhere, but tries a GET on the other instance when one is shutting down", async () => {
    const { request } = await import("node:http");
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${proxy.url}/a-medias`, { method: "POST" }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end("x=1");
      });
    const posts = [await post(), await post()];
    // Round-robin: one went to the instance that is shutting down, and got its 503.
    expect(posts.sort()).toEqual([200, 503]);
    expect(reached("/a-medias")).toHaveLength(2);

    for (let i = 0; i < 4; i++) {
      const answer = await get("/a-medias");
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toBe("b GET");
    }
  });

  it("passes on a redirect that echoes the longest path the app serves, whose key also fills the buffer", async () => {
    // A path of 8,150 characters (the app serves up to 8,192, nginx's request line is 8 KB):
    // its cache key and the echoing Location once outgrew the 16 KB header buffer, and nginx
    // answered 502 and counted the instance as failing (hostile run, seed 223875).
    const path = `/eco/${"%C3%B1".repeat(1357)}`;
    const answer = await get(path);
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(path.slice("/eco".length));
  });

  it("logs every request with its client's address, except the analytics beacon's", async () => {
    const logDir = mkdtempSync(path.join(tmpdir(), "nginx-access-log-"));
    const accessLog = path.join(logDir, "access.log");
    const logging = await startCachingProxy([await standIn("c")], { accessLog });
    try {
      const { request } = await import("node:http");
      const post = (target: string) =>
        new Promise<void>((resolve, reject) => {
          const req = request(`${logging.url}${target}`, { method: "POST" }, (res) => {
            res.resume();
            res.on("end", resolve);
          });
          req.on("error", reject);
          req.end("{}");
        });
      await post("/api/analitica");
      await post("/api/%61nalitica");
      await rawGet(`${logging.url}/publica-log`);
      // Less the probe that waited for nginx to answer.
      const lines = readFileSync(accessLog, "utf8")
        .trim()
        .split("\n")
        .filter((line) => !line.includes('"GET / HTTP'));
      expect(lines).toHaveLength(3);
      const [beacon, encodedBeacon, page] = lines;
      expect(beacon).toContain('"POST /api/analitica HTTP/1.1"');
      expect(encodedBeacon).toContain('"POST /api/analitica HTTP/1.1"');
      for (const line of [beacon, encodedBeacon]) expect(line).not.toContain("127.0.0.1");
      expect(page).toMatch(/^127\.0\.0\.1 .*"GET \/publica-log HTTP\/1\.1"/);
    } finally {
      logging.stop();
    }
  });
});
