import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger.server";
import { requestLog } from "../http/request-log.server";
import { refuseForeignOrigin } from "./origin-check.server";

const lines: string[] = [];
const output = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});

let baseUrl = "";
let close: () => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.use(requestLog(createLogger("info", output), { coarseAddressPaths: [] }));
  app.use(refuseForeignOrigin("http://localhost:3000"));
  app.use((_req, res) => {
    res.send("ok");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

const post = (origin: string, accept = "*/*") =>
  fetch(`${baseUrl}/login-cliente`, {
    method: "POST",
    headers: { Origin: origin, Accept: accept },
  });

describe("a post from another origin (issue 39, item 1)", () => {
  it("tells the person where the site is, as a page to a browser and as text to a script", async () => {
    const page = await post("http://127.0.0.1:3000", "text/html,application/xhtml+xml");
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(
      "Este formulario se ha enviado desde http://127.0.0.1:3000, pero el sitio está en http://localhost:3000",
    );
    expect(html).toContain('<a href="http://localhost:3000/">Ir a http://localhost:3000</a>');
    const text = await post("https://evil.example");
    expect(text.status).toBe(403);
    expect(await text.text()).toMatch(/^Origen no permitido: .* desde https:\/\/evil\.example,/);
  });

  it("writes why in the log: the origin it expected and the one it got", async () => {
    await (await post("http://127.0.0.1:3000")).arrayBuffer();
    await expect
      .poll(() => lines.find((line) => line.includes("a post from another origin was refused")))
      .toBeDefined();
    const line = JSON.parse(lines.find((l) => l.includes("another origin was refused"))!) as {
      expectedOrigin: string;
      receivedOrigin: string;
    };
    expect(line).toMatchObject({
      expectedOrigin: "http://localhost:3000",
      receivedOrigin: "http://127.0.0.1:3000",
    });
  });

  it("escapes what it repeats of the request", async () => {
    const html = await (await post('http://a"><script>x</script>', "text/html")).text();
    expect(html).not.toContain("<script>");
  });

  it("lets the site's own posts and reads through", async () => {
    expect((await post("http://localhost:3000")).status).toBe(200);
    expect(
      (await fetch(`${baseUrl}/`, { headers: { Origin: "https://evil.example" } })).status,
    ).toBe(200);
  });
});
