import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type pino from "pino";
import { redactUrl } from "../log-redaction";
import { addressNetwork } from "../security/client-address.server";

const REQUEST_ID_PATTERN = /^[\w-]{1,64}$/;

/**
 * Gives each request an id (kept from a well-formed X-Request-Id) and logs it once finished,
 * its path redacted: /api/auth/reset-password/<token> is logged with [Redacted]. For the paths
 * in `coarseAddressPaths` (the analytics beacon, whose visitors the privacy policy promises not
 * to keep) only the address's network is logged: its /24 or /48.
 */
export function requestLog(
  logger: pino.Logger,
  { coarseAddressPaths = [] }: { coarseAddressPaths?: readonly string[] } = {},
): RequestHandler {
  const coarse = new Set(coarseAddressPaths);
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    res.locals.log = logger.child({ requestId });
    res.setHeader("X-Request-Id", requestId);
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const path = req.originalUrl.split("?")[0]!;
      logger.info(
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
    next();
  };
}
