import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateWhenPersonal } from "./page-cache.server";

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
