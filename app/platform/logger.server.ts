import pino from "pino";
import { getConfig } from "./config.server";

let cached: pino.Logger | undefined;

/** JSON logs on stdout; request handlers log through a child carrying the request id. */
export function getLogger(): pino.Logger {
  cached ??= pino({
    level: getConfig().logLevel,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: ["password", "*.password", "headers.cookie", "headers.authorization"],
  });
  return cached;
}
