import { randomUUID } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from "node:http";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type pino from "pino";
import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import type { FormFields } from "~/platform/forms/form-answer";
import { requestContext } from "../request-context";
import {
  constantSecurityHeaders,
  contentSecurityPolicy,
  createNonce,
} from "../security/headers.server";
import { negotiateEncoding } from "./precompressed-static.server";

const REQUEST_ID_PATTERN = /^[\w-]{1,64}$/;
const URLENCODED = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;
/** The compression middleware's own threshold for an answer of known length. */
const COMPRESS_FROM_BYTES = 1024;
const ENCODINGS = new Set(["br", "gzip"] as const);

/** What a route's action answers for a form that stays on its page (`refuse`, `notice`). */
export type FormPostAnswer = DataWithResponseInit<unknown>;

/** The request as Express sees it: `ip` by TRUST_PROXY, the same answer either way. */
export type ExpressRequestPrototype = object;

export type EarlyFormPostOptions = {
  /** The one path answered here (no query string); every other request goes the long way. */
  path: string;
  /** The largest body answered here; a larger one goes the long way and gets its 413. */
  maxBodyBytes: number;
  /** The route's action on the fields read (`null`: no form), its one source of rules. */
  answer(fields: FormFields | null, clientAddress: string): Promise<FormPostAnswer>;
  /**
   * Whether Express's middlewares in front of the action would let this request through
   * untouched (readiness, a plain address, the origin): if not, it goes the long way.
   */
  wouldPass(req: IncomingMessage): boolean;
  /** Express's request prototype (`app.request`): `req.ip` as every handler reads it. */
  expressRequest: ExpressRequestPrototype;
  /** A visitor with the site's cookies is answered `private, no-store` (`privateWhenPersonal`). */
  isPersonal(cookie: string | undefined): boolean;
  isProduction: boolean;
  logger: pino.Logger;
  /** Told when the answer starts and when it has been written: shutdown and the metrics. */
  started(): void;
  finished(status: number, seconds: number): void;
};

/**
 * A form's JSON answer (a light page's script posts there, decision 038) answered before Express
 * and React Router, for a post that every middleware in front of its route would let through
 * untouched: the same action on the same fields, the same headers (security headers, a CSP
 * nonce, X-Request-Id, `Vary: Accept-Encoding`), the same request log line. What it skips is the
 * cost of the long way: Express's router and middlewares, the Fetch request and response of our
 * adapter and React Router's action machinery (decision 046). Returns false, having done
 * nothing, for any other request.
 */
export function earlyFormPost(options: EarlyFormPostOptions) {
  const securityHeaders = constantSecurityHeaders(options);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const { headers } = req;
    const length = headers["content-length"];
    if (
      req.method !== "POST" ||
      req.url !== options.path ||
      headers["transfer-encoding"] !== undefined ||
      length === undefined ||
      !/^\d{1,9}$/.test(length) ||
      Number(length) > options.maxBodyBytes ||
      !URLENCODED.test(headers["content-type"] ?? "") ||
      !options.wouldPass(req)
    )
      return false;
    Object.setPrototypeOf(req, options.expressRequest);
    const express = req as IncomingMessage & {
      ip?: string;
      app: { get(name: "trust proxy fn"): (address: string, hop: number) => boolean };
    };
    const incoming = headers["x-request-id"];
    const requestId =
      typeof incoming === "string" &&
      REQUEST_ID_PATTERN.test(incoming) &&
      express.app.get("trust proxy fn")(req.socket.remoteAddress ?? "", 0)
        ? incoming
        : randomUUID();
    const clientAddress = express.ip ?? req.socket.remoteAddress ?? "unknown";
    const started = process.hrtime.bigint();
    options.started();
    void requestContext
      .run({ requestId }, async () => {
        let status = 500;
        try {
          const fields = await readFields(req);
          const answer = await options.answer(fields, clientAddress);
          status = answer.init?.status ?? 200;
          writeAnswer(req, res, status, answer, [
            ["X-Request-Id", requestId],
            ["Content-Security-Policy", contentSecurityPolicy(createNonce(), options)],
            ...securityHeaders,
            ...(options.isPersonal(headers.cookie)
              ? [["Cache-Control", "private, no-store"] as [string, string]]
              : []),
          ]);
        } catch (error) {
          // As Express's final handler answers what a route throws.
          options.logger.error({ err: error }, "answering a form post failed");
          status = 500;
          if (!res.headersSent) {
            res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
            res.end("Internal Server Error");
          }
        }
        return status;
      })
      .then((status) => {
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        options.finished(status, durationMs / 1e3);
        // The line requestLog writes for a form's answer (never routine: info).
        if (options.logger.isLevelEnabled("info"))
          options.logger.info(
            {
              requestId,
              method: "POST",
              path: options.path,
              status,
              durationMs: Math.round(durationMs * 10) / 10,
              ip: clientAddress,
            },
            "request",
          );
      });
    return true;
  };
}

/**
 * The posted fields, the last of a repeated name winning as in `readForm`; `null` when the
 * client left before the whole body came.
 */
function readFields(req: IncomingMessage): Promise<FormFields | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => {
      const fields: FormFields = {};
      for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString("utf8")))
        fields[name] = value;
      resolve(fields);
    });
    req.once("close", () => {
      if (!req.complete) resolve(null);
    });
  });
}

/**
 * The answer as React Router writes an action's `data()` (JSON of its data, its status and
 * headers) and Express passes it on (`charset=utf-8`), compressed as the compression
 * middleware would for a client that accepts it, with its length: one write.
 */
function writeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  answer: FormPostAnswer,
  headers: Array<[string, string]>,
) {
  let body = Buffer.from(JSON.stringify(answer.data) ?? "null");
  const list: OutgoingHttpHeader[] = [];
  for (const [name, value] of headers) list.push(name, value);
  const own = answer.init?.headers;
  // `refuse` gives a plain object (Retry-After); anything else is read as Fetch would.
  const entries =
    own === undefined
      ? []
      : own instanceof Headers || Array.isArray(own)
        ? [...new Headers(own)]
        : Object.entries(own as Record<string, string>);
  for (const [name, value] of entries) list.push(name, value);
  list.push("Content-Type", "application/json; charset=utf-8", "Vary", "Accept-Encoding");
  const encoding =
    body.length >= COMPRESS_FROM_BYTES
      ? negotiateEncoding(req.headers["accept-encoding"], ENCODINGS)
      : undefined;
  if (encoding === "br")
    body = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  else if (encoding === "gzip") body = gzipSync(body, { level: 4 });
  if (encoding) list.push("Content-Encoding", encoding);
  list.push("Content-Length", String(body.length));
  res.writeHead(status, list);
  res.end(body);
}
