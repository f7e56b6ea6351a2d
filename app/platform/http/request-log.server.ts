import { randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type pino from "pino";
import { redactUrl } from "../log-redaction";
import { boundToRequest } from "../logger.server";
import { requestContext } from "../request-context";
import { addressNetwork } from "../security/client-address.server";

const REQUEST_ID_PATTERN = /^[\w-]{1,64}$/;

/** An answer that took this long is logged at info level whatever it was. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * Answers that say they are the same for everyone (`Cache-Control: public`: the page cache's
 * hits, static files, robots.txt, the sitemap), successful and quick: most of the traffic, and
 * nothing to look into. They are logged at debug level; every other answer (rendered pages,
 * forms, redirects, every 4xx and 5xx, anything slow) at info. See decision 041.
 */
function isRoutine(status: number, slow: boolean, cacheControl: unknown): boolean {
  return (
    status < 400 &&
    !slow &&
    typeof cacheControl === "string" &&
    /(?:^|,)\s*public\b/.test(cacheControl)
  );
}

/** Told of every request the log sees, once answered: the request metrics (decision 049). */
export type RequestObserver = (req: Request, res: Response, seconds: number) => void;

/**
 * Whether the request's X-Request-Id may be believed: only from a proxy Express trusts
 * (TRUST_PROXY: nginx sets it to its own `$request_id`), so one id follows the request from the
 * proxy's access log to ours; anyone else's is replaced by our own.
 */
function fromTrustedProxy(req: Request): boolean {
  const trusts = req.app.get("trust proxy fn") as
    ((address: string, hop: number) => boolean) | undefined;
  return trusts?.(req.socket.remoteAddress ?? "", 0) ?? false;
}

/**
 * Gives each request an id (the trusted proxy's well-formed X-Request-Id, else a new one) and
 * logs it once finished, its path redacted: /api/auth/reset-password/<token> is logged with
 * [Redacted]. For the paths in `coarseAddressPaths` (the analytics beacon, whose visitors the
 * privacy policy promises not to keep) only the address's network is logged: its /24 or /48.
 * Routine answers (`isRoutine`) are logged at debug level, the rest at info; a line below the
 * configured level costs nothing but the check. The rest of the request runs inside its
 * `requestContext`, so every line logged on its behalf carries the id (logger.server.ts);
 * handlers may also log through `res.locals.log`, a child carrying it, made when first used.
 * `observe`, if given, is told of each answer with its duration (the request metrics).
 */
export function requestLog(
  logger: pino.Logger,
  {
    coarseAddressPaths = [],
    slowRequestMs = SLOW_REQUEST_MS,
    observe,
  }: {
    coarseAddressPaths?: readonly string[];
    slowRequestMs?: number;
    observe?: RequestObserver;
  } = {},
): RequestHandler {
  const coarse = new Set(coarseAddressPaths);
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    const requestId =
      incoming && REQUEST_ID_PATTERN.test(incoming) && fromTrustedProxy(req)
        ? incoming
        : randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    let child: pino.Logger | undefined;
    Object.defineProperty(res.locals, "log", {
      get: () => {
        if (!child) {
          child = logger.child({ requestId });
          boundToRequest.add(child);
        }
        return child;
      },
      enumerable: true,
      configurable: true,
    });
    res.setHeader("X-Request-Id", requestId);
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      observe?.(req, res, durationMs / 1e3);
      const slow = durationMs >= slowRequestMs;
      const level = isRoutine(res.statusCode, slow, res.getHeader("cache-control"))
        ? "debug"
        : "info";
      if (!logger.isLevelEnabled(level)) return;
      const path = req.originalUrl.split("?")[0]!;
      logger[level](
        {
          requestId,
          method: req.method,
          // The path as asked for (mounted routers rewrite req.path), without its query (no
          // search terms or addresses in the log), and without the token of a mailed link.
          path: redactUrl(path),
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          ip: coarse.has(path) ? addressNetwork(req.ip ?? "") : req.ip,
        },
        "request",
      );
    });
    requestContext.run({ requestId }, next);
  };
}
