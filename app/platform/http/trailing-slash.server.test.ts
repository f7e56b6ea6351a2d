import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redirectExtraSlashes } from "./trailing-slash.server";

let base = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(redirectExtraSlashes);
  app.all("/{*splat}", (req, res) => {
    res.type("text/plain").send(`page ${req.originalUrl}`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

/** The raw request target, as a client may send it (fetch would normalise `//`). */
async function send(target: string, method = "GET") {
  const { request } = await import("node:http");
  const { port } = new URL(base);
  return new Promise<{ status: number; location?: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: target, method }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a path with a trailing slash", () => {
  it.each([
    ["/precios/", "/precios"],
    ["/terminos/", "/terminos"],
    ["/mi-cuenta/tickets/", "/mi-cuenta/tickets"],
    ["/precios//", "/precios"],
    ["/precios/?utm_source=x&b=%2F", "/precios?utm_source=x&b=%2F"],
  ])("%s answers 301 to %s", async (from, to) => {
    expect(await send(from)).toEqual({ status: 301, location: to });
  });

  it.each([
    ["//evil.com/", "/evil.com"],
    ["///evil.com/", "/evil.com"],
    ["/\\evil.com/", "/evil.com"],
    ["/\\/evil.com/", "/evil.com"],
    ["//evil.com//?next=1", "/evil.com?next=1"],
    ["//", "/"],
  ])("%s stays on this site (%s)", async (from, to) => {
    const answer = await send(from);
    expect(answer).toEqual({ status: 301, location: to });
    // Resolved against the site, the target never names another host.
    expect(new URL(answer.location!, "https://www.example.es").host).toBe("www.example.es");
  });

  it.each([
    ["//evil.com/precios", "/evil.com/precios"],
    ["/\\evil.com/precios", "/evil.com/precios"],
    ["///evil.com/precios?comprar=x", "/evil.com/precios?comprar=x"],
    ["//precios", "/precios"],
  ])("%s, without a trailing slash, also stays on this site (%s)", async (from, to) => {
    const answer = await send(from);
    expect(answer).toEqual({ status: 301, location: to });
    expect(new URL(answer.location!, "https://www.example.es").host).toBe("www.example.es");
  });

  it("keeps the method and body of a form post (308)", async () => {
    expect(await send("/contacto/", "POST")).toEqual({ status: 308, location: "/contacto" });
    expect(await send("//contacto", "POST")).toEqual({ status: 308, location: "/contacto" });
  });

  it.each(["/", "/precios", "/precios?x=/", "/assets/a.js"])("%s is served as is", async (path) => {
    expect((await send(path)).status).toBe(200);
  });
});
