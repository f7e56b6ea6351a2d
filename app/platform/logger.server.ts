import pino from "pino";
import { getConfig } from "./config.server";
import { errorForLog, LOG_REDACTION, maskCardNumbers, maskCardNumbersIn } from "./log-redaction";

let cached: pino.Logger | undefined;

/**
 * The site's logger configuration, writing to `destination` (stdout unless given). No line
 * carries a password, a cookie or the token of a mailed link: see LOG_REDACTION.
 */
export function createLogger(
  level: pino.LevelWithSilent,
  destination?: pino.DestinationStream,
): pino.Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      // Secret fields censored, URL fields stripped of their tokens (log-redaction.ts).
      redact: LOG_REDACTION,
      // Errors of failed queries without the values they carried (log-redaction.ts).
      serializers: {
        err: (error: unknown) => pino.stdSerializers.err(errorForLog(error) as Error),
      },
      // Card numbers masked in every field and message, whatever sent them (log-redaction.ts).
      formatters: { log: (fields) => maskCardNumbersIn(fields) },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === "string" ? maskCardNumbers(arg) : arg)) as Parameters<
              typeof method
            >,
          );
        },
      },
    },
    destination,
  );
}

/** JSON logs on stdout; request handlers log through a child carrying the request id. */
export function getLogger(): pino.Logger {
  cached ??= createLogger(getConfig().logLevel);
  return cached;
}
