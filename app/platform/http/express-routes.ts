/**
 * The paths Express answers itself, before React Router: one list for the server and for the
 * authorisation matrix that proves who may use each of them.
 */
export const expressRoutes = {
  health: "/healthz",
  ready: "/readyz",
  stripeWebhook: "/api/stripe/webhook",
  /** The two links Better Auth mails; its other endpoints are closed. */
  verifyEmailLink: "/api/auth/verify-email",
  resetPasswordLink: "/api/auth/reset-password/:token",
  closedAuthApi: "/api/auth/{*rest}",
} as const;

/**
 * How long an idle kept-alive connection stays open. Longer than the proxy keeps its idle
 * upstream connections (`keepalive_timeout 60s` in deploy/nginx.conf): otherwise the app may
 * close one just as nginx sends a request on it, and nginx answers that request 502 (a POST is
 * never retried). Node's default is 5 seconds.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
