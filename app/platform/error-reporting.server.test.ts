import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { flushErrorReporting, startErrorReporting } from "./error-reporting.server";
import { createLogger, setErrorReporter } from "./logger.server";
import { requestContext } from "./request-context";

/**
 * SENTRY_DSN (decision 049): an error logged while a request is handled reaches a Sentry-
 * compatible ingest endpoint (here a local one) with the request's id, and without the values
 * of a failed query.
 */
const envelopes: string[] = [];
let ingest: Server;
let dsn = "";

beforeAll(async () => {
  ingest = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      envelopes.push(
        req.headers["content-encoding"] === "gzip"
          ? gunzipSync(body).toString("utf8")
          : body.toString("utf8"),
      );
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => ingest.once("listening", resolve));
  dsn = `http://clavepublica@127.0.0.1:${(ingest.address() as AddressInfo).port}/1`;
});

afterAll(() => {
  setErrorReporter(undefined);
  ingest.close();
});

it("reports nothing and loads nothing without SENTRY_DSN", async () => {
  expect(await startErrorReporting(undefined, { environment: "test" })).toBe(false);
});

it("sends an error line with its request id, cleaned as for the log", async () => {
  expect(await startErrorReporting(dsn, { environment: "test" })).toBe(true);
  const logger = createLogger("info", new Writable({ write: (_chunk, _encoding, done) => done() }));
  const failed = Object.assign(new Error("Failed query: select 1\nparams: secreto@example.es"), {
    query: "select 1",
    params: ["secreto@example.es"],
  });
  requestContext.run({ requestId: "a1b2c3d4e5f60718293a4b5c6d7e8f90" }, () => {
    logger.error({ err: failed }, "la consulta falló");
  });
  logger.info("an info line is not reported");
  await flushErrorReporting();
  await expect.poll(() => envelopes.length).toBeGreaterThan(0);
  const sent = envelopes.join("\n");
  expect(sent).toContain("a1b2c3d4e5f60718293a4b5c6d7e8f90");
  expect(sent).toContain("Failed query: select 1");
  expect(sent).not.toContain("secreto@example.es");
  expect(sent).not.toContain("an info line is not reported");
});
