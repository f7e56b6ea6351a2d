import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { visitorKey } from "~/platform/security/client-address.server";
import { hitRateLimit, type RateLimitRule } from "~/platform/security/rate-limit.server";

/** Abuse limits of the account actions: per client address and per account (e-mail). */
export type AccountAction = "sign-in" | "sign-up" | "reset" | "new-password" | "resend";

/** The new-password form names no account, only the mailed token: it is limited per address. */
const perAccount: Record<Exclude<AccountAction, "new-password">, RateLimitRule> = {
  // The 11th wrong password for one account within a minute is refused.
  "sign-in": { limit: 10, windowMs: 60_000 },
  "sign-up": { limit: 3, windowMs: 60 * 60_000 },
  reset: { limit: 3, windowMs: 15 * 60_000 },
  resend: { limit: 3, windowMs: 15 * 60_000 },
};

const PER_ADDRESS_WINDOW_MS = 10 * 60_000;

/** Counts one attempt; returns the seconds to wait when over a limit, otherwise undefined. */
export async function checkAccountLimits(
  action: AccountAction,
  { clientAddress, email }: { clientAddress: string; email?: string },
): Promise<number | undefined> {
  const db = getDb();
  const byAddress = await hitRateLimit(db, `${action}:ip:${visitorKey(clientAddress)}`, {
    limit: getConfig().authAddressRateLimit,
    windowMs: PER_ADDRESS_WINDOW_MS,
  });
  if (!byAddress.allowed) return byAddress.retryAfterSeconds;
  if (email && action !== "new-password") {
    const byAccount = await hitRateLimit(db, `${action}:account:${email}`, perAccount[action]);
    if (!byAccount.allowed) return byAccount.retryAfterSeconds;
  }
  return undefined;
}
