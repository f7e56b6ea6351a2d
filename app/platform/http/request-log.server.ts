import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type pino from "pino";
import { redactUrl } from "../log-redaction";

const REQUEST_ID_PATTERN = /^[\w-]{1,64}$/;

/**
 * Gives each request an id (kept from a well-formed X-Request-Id) and logs it once finished,
 * its path redacted: /api/auth/reset-password/<token> is logged with [Redacted].
 */
export function requestLog(logger: pino.Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    res.locals.log = logger.child({ requestId });
    res.setHeader("X-Request-Id", requestId);
    res.on("finish", () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          requestId,
          method: req.method,
          // The path as asked for (mounted routers rewrite req.path), without its query (no
          // search terms or addresses in the log), and without the token of a mailed link.
          path: redactUrl(req.originalUrl.split("?")[0]!),
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          ip: req.ip,
        },
        "request",
      );
    });
    next();
  };
}
