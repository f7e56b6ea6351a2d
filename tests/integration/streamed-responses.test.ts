import { once } from "node:events";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { requestFrom, sendResponse } from "~/platform/http/react-router-handler.server";

/**
 * How the server writes React Router's answers (app/platform/http/react-router-handler.server.ts):
 * a long streamed download is never held whole in memory, a client that leaves stops its
 * producer, and the Fetch request carries what Express received.
 */
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const CHUNK = new TextEncoder().encode(`${"x".repeat(87)}\r\n`.repeat(500)); // 44.5 kB
const CHUNKS = 2_000; // 89 MB in all

let server: ReturnType<express.Express["listen"]> | undefined;
afterEach(() => server?.close());

async function serve(app: express.Express): Promise<string> {
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A body of CHUNKS fresh chunks, made as the reader asks for them. */
function download(onChunk: (index: number) => void, onCancel = () => {}) {
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index === CHUNKS) return controller.close();
        onChunk(index++);
        controller.enqueue(CHUNK.slice());
      },
      cancel: onCancel,
    },
    { highWaterMark: 8 },
  );
}

describe("a streamed response", () => {
  it("keeps only what the socket has not taken yet: 89 MB sent, a few MB of buffers at most", async () => {
    const baseline = (() => {
      collectGarbage();
      return process.memoryUsage().arrayBuffers;
    })();
    let peak = 0;
    const app = express();
    app.get("/export", (_req, res, next) => {
      const body = download((index) => {
        if (index % 100 !== 0) return;
        collectGarbage();
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
      });
      sendResponse(res, new Response(body, { headers: { "Content-Type": "text/csv" } })).catch(
        next,
      );
    });
    // The client reads in a process of its own: in this one, its buffers would count as the
    // server's (fetch's body ran up to 25 MB ahead of a reader slowed by a busy machine).
    const url = await serve(app);
    const { stdout } = await promisify(execFile)(process.execPath, [
      "-e",
      `fetch(process.argv[1]).then(async (r) => { let n = 0; for await (const c of r.body) n += c.length; console.log(JSON.stringify([r.headers.get("content-type"), n])); })`,
      `${url}/export`,
    ]);
    const [contentType, bytes] = JSON.parse(stdout) as [string, number];
    expect(contentType).toMatch(/^text\/csv/);
    expect(bytes).toBe(CHUNK.length * CHUNKS);
    // @react-router/express 7.18's writer kept 85 MB here; ours keeps 0.5-3 MB.
    expect(peak / 1_048_576).toBeLessThan(10);
  });

  it("stops its producer when the client leaves halfway", async () => {
    let cancelled = false;
    let made = 0;
    const app = express();
    app.get("/export", (_req, res) => {
      void sendResponse(
        res,
        new Response(
          download(
            () => made++,
            () => {
              cancelled = true;
            },
          ),
        ),
      );
    });
    const controller = new AbortController();
    const response = await fetch(`${await serve(app)}/export`, { signal: controller.signal });
    const reader = response.body!.getReader();
    for (let read = 0; read < 20; read++) await reader.read();
    controller.abort();
    await expect.poll(() => cancelled, { timeout: 5_000 }).toBe(true);
    expect(made).toBeLessThan(CHUNKS);
  });
});

describe("the request React Router receives", () => {
  it("has the address, headers and body Express received, the proxy's host only when trusted", async () => {
    const seen: { url: string; cookie: string | null; body: string }[] = [];
    const app = express();
    app.set("trust proxy", true);
    app.post("/enviar", (req, res, next) => {
      const request = requestFrom(req, res);
      void request
        .text()
        .then((body) => {
          seen.push({ url: request.url, cookie: request.headers.get("cookie"), body });
          return sendResponse(res, new Response(null, { status: 204 }));
        })
        .catch(next);
    });
    const base = await serve(app);
    const answer = await fetch(`${base}/enviar?x=1`, {
      method: "POST",
      headers: {
        Cookie: "a=1",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "www.example.es",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "nombre=Ana",
    });
    expect(answer.status).toBe(204);
    expect(seen).toEqual([
      { url: "https://www.example.es/enviar?x=1", cookie: "a=1", body: "nombre=Ana" },
    ]);
  });
});
