import { createReadableStreamFromReadable } from "@react-router/node";
import type express from "express";
import { createRequestHandler, type ServerBuild } from "react-router";

/**
 * React Router behind Express: the Fetch request made from Express's, and the Fetch response
 * written back to the socket.
 *
 * Ours rather than @react-router/express 7.18: its writer races every chunk it reads against
 * the socket closing, and each race keeps its chunk reachable until the response ends, so a
 * streamed download stayed whole in memory while it was sent (the CSV of a million payments:
 * 85 MB of buffers, tests/integration/streamed-responses.test.ts). Here a chunk lives only
 * until the socket has taken it.
 */
export function reactRouterHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: ServerBuild | (() => ServerBuild | Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: express.Request, res: express.Response) => unknown;
}): express.RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const response = await handle(requestFrom(req, res), getLoadContext(req, res) as never);
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/** The Fetch request of an Express request; aborted if the client leaves before the answer. */
export function requestFrom(req: express.Request, res: express.Response): Request {
  // Express reads X-Forwarded-Proto/-Host only when 'trust proxy' says the proxy is ours.
  const url = new URL(req.originalUrl, `${req.protocol}://${req.host || "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

type Flushable = express.Response & { flush?: () => void };

/**
 * Writes a Fetch response: status, headers, then the body chunk by chunk, waiting for the socket
 * to drain, flushing each chunk through compression (a streamed page shows as it comes). A
 * client that leaves cancels the body, which stops its producer (a database cursor, a render).
 */
export async function sendResponse(res: Flushable, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // One drain listener for the whole response: compression moves 'drain' listeners onto its
  // stream and a `once` there is never removed (11 waits warned of a listener leak).
  let drained: (() => void) | undefined;
  res.on("drain", () => drained?.());
  const gone = new Promise<void>((resolve) => res.once("close", resolve));
  void gone.then(() => {
    if (!res.writableFinished) void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      const roomForMore = res.write(value);
      res.flush?.();
      if (!roomForMore)
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), gone]);
    }
    if (!res.destroyed) res.end();
  } finally {
    reader.releaseLock();
  }
}
