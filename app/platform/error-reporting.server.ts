import type * as SentrySdk from "@sentry/node";
import { errorForLog, maskCardNumbers } from "./log-redaction";
import { setErrorReporter } from "./logger.server";
import { requestContext } from "./request-context";

/** pino's number for `fatal`. */
const FATAL_LEVEL = 60;

/**
 * SENTRY_DSN: every line logged at error level or above is also sent, as an event, to Sentry or
 * a service that speaks its protocol (GlitchTip, Bugsink), with the official SDK, tagged with
 * the request id of the request it happened in (decision 049). The SDK is loaded only when the
 * variable is set: without it nothing of Sentry is loaded at start. Only the error and its
 * stack are sent, cleaned as for the log (failed queries without their values, card numbers
 * masked); no request, cookie, header, address or user (`dataCollection` all off, no integrations
 * that read them), and no tracing.
 */
export async function startErrorReporting(
  dsn: string | undefined,
  { environment, release }: { environment: string; release?: string },
): Promise<boolean> {
  if (!dsn) return false;
  let Sentry: typeof SentrySdk;
  try {
    Sentry = await import("@sentry/node");
  } catch {
    throw new Error(
      "SENTRY_DSN está definido pero @sentry/node no está instalado: instálalo (npm install @sentry/node) o construye la imagen con --build-arg SENTRY=1",
    );
  }
  Sentry.init({
    dsn,
    environment,
    release,
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
    },
    tracesSampleRate: 0,
    // Errors arrive through the logger; the SDK's own hooks into HTTP, console and the rest
    // would read requests and add work to every one of them.
    defaultIntegrations: false,
    integrations: [
      Sentry.onUncaughtExceptionIntegration(),
      Sentry.onUnhandledRejectionIntegration(),
    ],
  });
  started = true;
  setErrorReporter((args, pinoLevel) => {
    const [first, second] = args;
    const fields =
      typeof first === "object" && first !== null ? (first as Record<string, unknown>) : {};
    const message = typeof first === "string" ? first : typeof second === "string" ? second : "";
    const error =
      first instanceof Error ? first : fields.err instanceof Error ? fields.err : undefined;
    const requestId =
      typeof fields.requestId === "string"
        ? fields.requestId
        : requestContext.getStore()?.requestId;
    const level = pinoLevel >= FATAL_LEVEL ? "fatal" : "error";
    Sentry.withScope((scope) => {
      scope.setLevel(level);
      if (requestId) scope.setTag("requestId", requestId);
      if (message) scope.setExtra("log", maskCardNumbers(message));
      if (error) Sentry.captureException(errorForLog(error));
      else Sentry.captureMessage(maskCardNumbers(message || "error"), level);
    });
  });
  return true;
}

let started = false;

/** Sends what is still queued, before the process exits. */
export async function flushErrorReporting(timeoutMs = 2_000) {
  if (!started) return;
  try {
    const Sentry = await import("@sentry/node");
    await Sentry.flush(timeoutMs);
  } catch {
    // Not installed, or not started: nothing to send.
  }
}
