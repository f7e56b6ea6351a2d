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
