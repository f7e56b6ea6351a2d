import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { visitorKey } from "~/platform/security/client-address.server";
import {
  backoffWait,
  clearFailures,
  hitRateLimit,
  recordFailure,
  type BackoffRule,
  type RateLimitRule,
} from "~/platform/security/rate-limit.server";

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

type Attempt = { clientAddress: string; email?: string };

/** Counts one attempt; returns the seconds to wait when over a limit, otherwise undefined. */
export async function checkAccountLimits(
  action: AccountAction,
  { clientAddress, email }: Attempt,
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
  if (action === "sign-in") return backoffWait(db, failureCounters({ clientAddress, email }));
  return undefined;
}

/**
 * Failed sign-ins (customer and admin login alike) back off per account and per address: after
 * the free failures, 30 s, doubled with each further failure up to 15 minutes. An address that
 * has no account counts exactly like one that has, so the answer tells nothing about it.
 */
const LOCKS = { firstLockMs: 30_000, maxLockMs: 15 * 60_000, forgetAfterMs: 24 * 60 * 60_000 };

const failureKey = {
  account: (email: string) => `sign-in-failures:account:${email}`,
  address: (clientAddress: string) => `sign-in-failures:ip:${visitorKey(clientAddress)}`,
};

function failureCounters({ clientAddress, email }: Attempt) {
  const counters: { key: string; rule: BackoffRule }[] = [
    {
      key: failureKey.address(clientAddress),
      // A shared address (an office, a carrier's NAT) gets as many as its fixed window allows.
      rule: { freeFailures: getConfig().authAddressRateLimit, ...LOCKS },
    },
  ];
  if (email)
    counters.push({
      key: failureKey.account(email),
      // As many as the fixed window allows in a minute: the back-off takes over from there.
      rule: { freeFailures: perAccount["sign-in"].limit, ...LOCKS },
    });
  return counters;
}

/** A wrong password (or an address without an account): one more failure on both counters. */
export async function recordSignInFailure(attempt: Attempt) {
  const db = getDb();
  for (const { key, rule } of failureCounters(attempt)) await recordFailure(db, key, rule);
}

/** The right password: the account's failures are forgotten; the address's are not. */
export async function clearSignInFailures(email: string) {
  await clearFailures(getDb(), failureKey.account(email));
}
