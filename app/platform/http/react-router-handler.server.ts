import type express from "express";
import { createRequestHandler, type ServerBuild } from "react-router";
import { BAD_REQUEST_TEXT, requestUrl } from "./request-url.server";
import { routePatterns } from "./route-pattern.server";

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
  // The route pattern of each request, the request metrics' label (decision 049). The
  // production build is one object; the dev server's changes with every edit.
  const staticPatterns = typeof build === "function" ? undefined : routePatterns(build);
  const patternOf = async (pathname: string) =>
    (staticPatterns ?? routePatterns(await (build as () => ServerBuild | Promise<ServerBuild>)()))(
      pathname,
    );
  return async (req, res, next) => {
    res.locals.route = staticPatterns
      ? staticPatterns(req.path)
      : await patternOf(req.path).catch(() => "unmatched");
    if (!requestUrl(req)) {
      res.status(400).type("text/plain").send(BAD_REQUEST_TEXT);
      return;
    }
    try {
      const response = await handle(requestFrom(req, res), getLoadContext(req, res) as never);
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The Fetch request of an Express request; aborted if the client leaves before the answer. Its
 * URL is this site's validated origin and the request's path (`//evil.com/precios` stays a path,
 * decision 034); a request without a valid one is refused before this is called.
 */
export function requestFrom(req: express.Request, res: express.Response): Request {
  const url = requestUrl(req);
  if (!url) throw new Error(`no valid address for ${req.method} ${req.originalUrl}`);
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
    init.body = bodyStream(req, res);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/** What the body stream buffers before it stops reading the socket. */
const BODY_BUFFER_BYTES = 64 * 1024;

/**
 * The request body as a Fetch stream that reads the socket only when the handler reads it, and
 * that, when the handler gives up on it (an answer before the body, a form over its limit),
 * discards the rest instead of destroying the socket: destroying it with bytes unread makes the
 * kernel reset the connection, the answer is lost, and nginx answers 502 and counts the
 * instance as failing. What is left unread when the answer is sent is discarded too (a stream
 * left paused would hold the connection until it timed out); never read at all, Node drains it.
 */
function bodyStream(req: express.Request, res: express.Response): ReadableStream<Uint8Array> {
  let listening = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => controller.close();
  const onClose = () => {
    if (!req.complete) controller.error(new Error("the client closed the request"));
  };
  const stopListening = () => {
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("close", onClose);
  };
  res.once("finish", () => {
    if (req.complete || !listening) return;
    stopListening();
    req.resume();
  });
  return new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      pull() {
        if (!listening) {
          listening = true;
          req.on("data", onData);
          req.once("end", onEnd);
          req.once("close", onClose);
        }
        req.resume();
      },
      cancel() {
        stopListening();
        req.resume();
      },
    },
    { highWaterMark: BODY_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
  );
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
  for (const [name, value] of response.headers) {
    // A response's own policy (an attachment's sandbox) replaces the site-wide one set before:
    // two policies would both apply, and one header says which is meant.
    if (name === "content-security-policy") res.setHeader(name, value);
    else res.append(name, value);
  }
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
