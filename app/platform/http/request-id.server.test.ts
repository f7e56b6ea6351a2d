import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger.server";
import { requestLog } from "./request-log.server";

/**
 * Issue #27, item 5: one request id from nginx's `$request_id` to every line the app logs for
 * that request, believed only from the proxy TRUST_PROXY names (decision 049).
 */
const lines: Record<string, unknown>[] = [];
const output = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const logger = createLogger("info", output);

/** An app as server.ts builds it: the request log first, handlers that log as features do. */
async function start(trustProxy: boolean | string) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(requestLog(logger));
  app.get("/trabajo", async (_req, res) => {
    // A feature logs through the process logger, after awaiting something, as a query would.
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.warn({ step: "after-await" }, "feature line");
    await Promise.resolve();
    res.locals.log.info({ step: "through-locals" }, "handler line");
    res.send("ok");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

let trusted: Awaited<ReturnType<typeof start>>;
let untrusted: Awaited<ReturnType<typeof start>>;

beforeAll(async () => {
  trusted = await start("loopback");
  untrusted = await start(false);
});
afterAll(() => {
  trusted.close();
  untrusted.close();
});

async function linesOf(url: string, requestId: string) {
  const response = await fetch(`${url}/trabajo`, { headers: { "X-Request-Id": requestId } });
  await response.text();
  const given = response.headers.get("x-request-id")!;
  await expect
    .poll(() => lines.some((line) => line.msg === "request" && line.requestId === given))
    .toBe(true);
  return { given, lines: lines.filter((line) => line.requestId === given) };
}

describe("the request id", () => {
  it("is nginx's when the request comes from the trusted proxy, on every line of the request", async () => {
    const nginxId = "5f0c3a9e8b7d4c2a1e6f9b8c7d6e5f4a";
    const { given, lines: ofRequest } = await linesOf(trusted.url, nginxId);
    expect(given).toBe(nginxId);
    expect(ofRequest.map((line) => line.msg).sort()).toEqual([
      "feature line",
      "handler line",
      "request",
    ]);
    // Each line names it once: the request log's child does not repeat it.
    const raw = JSON.stringify(ofRequest.find((line) => line.msg === "handler line"));
    expect(raw.match(/"requestId"/g)).toHaveLength(1);
  });

  it("is the app's own when anyone else sends one", async () => {
    const { given, lines: ofRequest } = await linesOf(untrusted.url, "forjado-por-un-cliente");
    expect(given).not.toBe("forjado-por-un-cliente");
    expect(given).toMatch(/^[0-9a-f-]{36}$/);
    expect(ofRequest).toHaveLength(3);
    expect(lines.some((line) => line.requestId === "forjado-por-un-cliente")).toBe(false);
  });

  it("is not carried by lines logged outside any request", async () => {
    logger.info("between requests");
    const line = lines.find((each) => each.msg === "between requests");
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty("requestId");
  });
});
