import pino from "pino";
import { getConfig } from "./config.server";
import { errorForLog, LOG_REDACTION, maskCardNumbers, maskCardNumbersIn } from "./log-redaction";
import { requestContext } from "./request-context";

let cached: pino.Logger | undefined;

/** pino's number for `error`; `fatal` is above it. */
const ERROR_LEVEL = 50;

/**
 * Loggers that already carry their request's id in their bindings (the request log's
 * `res.locals.log`): the mixin adds none to their lines, which would repeat the key.
 */
export const boundToRequest = new WeakSet<pino.Logger>();

/**
 * Where a line is written while a request is handled, its request id: from the request log's
 * AsyncLocalStorage, unless the line or its logger already names it.
 */
function requestIdOfLine(fields: object, _level: number, logger: pino.Logger): object {
  const context = requestContext.getStore();
  // A new object each time: pino merges the line's fields into it.
  if (!context || "requestId" in fields || boundToRequest.has(logger)) return {};
  return { requestId: context.requestId };
}

/** Called with every line at error level or above, when error reporting is on (SENTRY_DSN). */
let reportError: ((args: unknown[], level: number) => void) | undefined;

/** Installs (or, with undefined, removes) the error reporter every error line is given to. */
export function setErrorReporter(reporter: typeof reportError) {
  reportError = reporter;
}

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
      // Every line written while a request is handled carries its id (decision 049).
      mixin: requestIdOfLine,
      // Errors of failed queries without the values they carried (log-redaction.ts).
      serializers: {
        err: (error: unknown) => pino.stdSerializers.err(errorForLog(error) as Error),
      },
      // Card numbers masked in every field and message, whatever sent them (log-redaction.ts).
      formatters: { log: (fields) => maskCardNumbersIn(fields) },
      hooks: {
        logMethod(args, method, level) {
          if (level >= ERROR_LEVEL && reportError) reportError(args, level);
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
