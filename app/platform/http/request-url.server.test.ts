import { type IncomingMessage, request } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestFrom } from "./react-router-handler.server";
import {
  addressIsPlain,
  isValidHost,
  MAX_TARGET_LENGTH,
  refuseMalformedAddress,
} from "./request-url.server";

/**
 * The URL React Router is given, through Express as server.ts mounts it behind a trusted proxy
 * (so X-Forwarded-Proto/-Host count): raw requests, since fetch would normalise `//evil.com`.
 */

let port = 0;
/** The same, with no proxy trusted (TRUST_PROXY unset): Host and the socket decide. */
let untrustingPort = 0;
let close: () => void = () => undefined;

beforeAll(async () => {
  const listen = async (trustProxy: boolean) => {
    const app = express();
    app.set("trust proxy", trustProxy);
    app.use(refuseMalformedAddress);
    app.all("/{*splat}", (req, res) => {
      res.type("text/plain").send(requestFrom(req, res).url);
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    return server;
  };
  const trusting = await listen(true);
  const untrusting = await listen(false);
  port = (trusting.address() as AddressInfo).port;
  untrustingPort = (untrusting.address() as AddressInfo).port;
  close = () => {
    trusting.close();
    untrusting.close();
  };
});

afterAll(() => close());

function send(target: string, headers: Record<string, string> = {}, to = port) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: to, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the request's URL", () => {
  it.each([
    ["//evil.com/precios", "http://www.example.es//evil.com/precios"],
    ["/\\evil.com/precios", "http://www.example.es//evil.com/precios"],
    ["///evil.com/precios?x=1", "http://www.example.es///evil.com/precios?x=1"],
    ["http://evil.com/precios?x=1", "http://www.example.es/precios?x=1"],
    ["/precios?comprar=ciberseguridad", "http://www.example.es/precios?comprar=ciberseguridad"],
  ])("of %s keeps this site's host: %s", async (target, url) => {
    const answer = await send(target, { Host: "www.example.es" });
    expect(answer).toEqual({ status: 200, body: url });
    expect(new URL(answer.body).host).toBe("www.example.es");
  });

  it("takes the trusted proxy's scheme and host", async () => {
    const answer = await send("/precios", {
      Host: "app1:3000",
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "www.example.es",
    });
    expect(answer).toEqual({ status: 200, body: "https://www.example.es/precios" });
  });
});

describe("a request target longer than any page needs", () => {
  it("answers 414 before anything would echo it in a redirect", async () => {
    const query = `?x=${"a".repeat(MAX_TARGET_LENGTH)}`;
    expect(await send(`/precios/${query}`, { Host: "www.example.es" })).toEqual({
      status: 414,
      body: "La dirección es demasiado larga.",
    });
    const longest = `/precios?x=${"a".repeat(MAX_TARGET_LENGTH - "/precios?x=".length)}`;
    expect((await send(longest, { Host: "www.example.es" })).status).toBe(200);
  });
});

describe("a request whose address is malformed", () => {
  it.each([
    [{ Host: "a b" }],
    [{ Host: "evil.com/precios" }],
    [{ Host: "a@evil.com" }],
    [{ Host: "localhost:70000" }],
    [{ Host: "localhost", "X-Forwarded-Host": "a b" }],
    [{ Host: "localhost", "X-Forwarded-Host": "evil.com#x" }],
    [{ Host: "localhost", "X-Forwarded-Proto": "javascript" }],
  ])("answers 400, never 500: %o", async (headers) => {
    expect(await send("/precios", headers)).toEqual({ status: 400, body: "Petición no válida" });
  });

  it("answers 400 to a target that is no path", async () => {
    expect(await send("*", { Host: "localhost" })).toEqual({
      status: 400,
      body: "Petición no válida",
    });
  });
});

describe("a valid host", () => {
  it.each([
    "localhost",
    "www.example.es",
    "www.example.es.",
    "app_1:3000",
    "127.0.0.1:8080",
    "[::1]",
    "[2001:db8::1]:443",
    "xn--vrtice-dua.es",
  ])("%s passes", (host) => {
    expect(isValidHost(host)).toBe(true);
  });

  it.each(["", "a b", "a/b", "a?b", "a#b", "a@b", "a\\b", "a%20b", ":80", "[zz]", "a:99999", "-a"])(
    "%j does not",
    (host) => {
      expect(isValidHost(host)).toBe(false);
    },
  );
});

describe("a request answered before Express (the page cache's hits, server.ts)", () => {
  const asSent = (target: string, headers: Record<string, string>) =>
    ({
      url: target,
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
      ),
    }) as IncomingMessage;

  it.each([
    ["/", { Host: "localhost:3000" }],
    // What the shipped nginx sends.
    [
      "/precios?utm_source=x",
      {
        Host: "www.example.es",
        "X-Forwarded-Host": "www.example.es",
        "X-Forwarded-Proto": "https",
      },
    ],
    [
      "/",
      {
        Host: "app1:3000",
        "X-Forwarded-Host": "www.example.es, otro",
        "X-Forwarded-Proto": "http, https",
      },
    ],
  ])("is plain with a well-formed address: %s %o", async (target, headers) => {
    expect(addressIsPlain(asSent(target, headers))).toBe(true);
    // And Express would have let it through, whichever proxy it trusts.
    expect((await send(target, headers)).status).toBe(200);
    expect((await send(target, headers, untrustingPort)).status).toBe(200);
  });

  it.each([
    ["/precios", { Host: "a b" }],
    ["/precios", { Host: "localhost:70000" }],
    ["/precios", { Host: "localhost", "X-Forwarded-Host": "a b" }],
    ["/precios", { Host: "localhost", "X-Forwarded-Host": "evil.com#x, b" }],
    ["/precios", { Host: "localhost", "X-Forwarded-Host": "" }],
    ["/precios", { Host: "localhost", "X-Forwarded-Proto": "javascript" }],
    ["/precios", { Host: "localhost", "X-Forwarded-Proto": "ftp, https" }],
    [`/precios?x=${"a".repeat(MAX_TARGET_LENGTH)}`, { Host: "localhost" }],
    ["*", { Host: "localhost" }],
    ["http://localhost/precios", { Host: "localhost" }],
  ])("goes the long way otherwise, to its 400 or 414 there: %s %o", (target, headers) => {
    expect(addressIsPlain(asSent(target, headers))).toBe(false);
  });
});
