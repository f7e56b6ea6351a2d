import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { visitorKey } from "~/platform/security/client-address.server";
import {
  backoffWait,
  clearFailures,
  hitRateLimit,
  recentFailures,
  recordFailure,
  type BackoffRule,
  type RateLimitRule,
} from "~/platform/security/rate-limit.server";

/** Abuse limits of the account actions: per client address and per account (e-mail). */
export type AccountAction =
  "sign-in" | "second-factor" | "sign-up" | "reset" | "new-password" | "resend";

/**
 * The new-password form names no account, only the mailed token: it is limited per address.
 * Sign-in is counted per account *and client*: a count of the account alone would let anyone
 * who knows the address lock its owner out (decision 036).
 */
const perAccount: Record<Exclude<AccountAction, "new-password">, RateLimitRule> = {
  // The 11th password for one account from one client within a minute is refused.
  "sign-in": { limit: 10, windowMs: 60_000 },
  // The code after the password (decision 044): as many as passwords, and the same back-off.
  "second-factor": { limit: 10, windowMs: 60_000 },
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
    const key =
      action === "sign-in" || action === "second-factor"
        ? `${action}:account:${email}:ip:${visitorKey(clientAddress)}`
        : `${action}:account:${email}`;
    const byAccount = await hitRateLimit(db, key, perAccount[action]);
    if (!byAccount.allowed) return byAccount.retryAfterSeconds;
  }
  // A wrong code counts as a wrong password (recordSignInFailure): both steps back off together.
  if (action !== "sign-in" && action !== "second-factor") return undefined;
  const wait = await backoffWait(db, failureCounters({ clientAddress, email }));
  if (wait === undefined && email) await slowDownGuessedAccount(email);
  return wait;
}

/**
 * Failed sign-ins (customer and admin login alike) back off per client (its address, an IPv6
 * /64) and per account from that client: after the free failures, 30 s, doubled with each
 * further failure up to 15 minutes. The client guessing is held back, never the account: its
 * owner signs in from another client at once (OWASP; decision 036). An address that has no
 * account counts exactly like one that has, so the answer tells nothing about it.
 */
const LOCKS = { firstLockMs: 30_000, maxLockMs: 15 * 60_000, forgetAfterMs: 24 * 60 * 60_000 };

/**
 * Guesses at one account spread over many clients (a botnet) are only slowed down: from the
 * 10th failure within the hour, each attempt at the account waits 100 ms more, up to 2 s, before
 * its password is checked. It never refuses, so it cannot be turned into a lockout.
 */
export const ACCOUNT_SLOWDOWN = {
  freeFailures: 10,
  stepMs: 100,
  maxMs: 2_000,
  forgetAfterMs: 60 * 60_000,
};

export function accountSlowdownMs(failures: number): number {
  const { freeFailures, stepMs, maxMs } = ACCOUNT_SLOWDOWN;
  return Math.min(Math.max(0, failures - freeFailures) * stepMs, maxMs);
}

const failureKey = {
  account: (email: string) => `sign-in-failures:account:${email}`,
  accountFromClient: (email: string, clientAddress: string) =>
    `sign-in-failures:account:${email}:ip:${visitorKey(clientAddress)}`,
  address: (clientAddress: string) => `sign-in-failures:ip:${visitorKey(clientAddress)}`,
};

async function slowDownGuessedAccount(email: string) {
  const failures = await recentFailures(
    getDb(),
    failureKey.account(email),
    ACCOUNT_SLOWDOWN.forgetAfterMs,
  );
  const delayMs = accountSlowdownMs(failures);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
}

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
      key: failureKey.accountFromClient(email, clientAddress),
      // As many as the fixed window allows in a minute: the back-off takes over from there.
      rule: { freeFailures: perAccount["sign-in"].limit, ...LOCKS },
    });
  return counters;
}

/**
 * A wrong password (or an address without an account): one more failure for the client, for
 * the account from that client, and for the account's slow-down.
 */
export async function recordSignInFailure(attempt: Attempt) {
  const db = getDb();
  for (const { key, rule } of failureCounters(attempt)) await recordFailure(db, key, rule);
  if (attempt.email)
    await recordFailure(db, failureKey.account(attempt.email), {
      freeFailures: ACCOUNT_SLOWDOWN.freeFailures,
      ...LOCKS,
      forgetAfterMs: ACCOUNT_SLOWDOWN.forgetAfterMs,
    });
}

/**
 * The right password: the account's failures from this client are forgotten; the client's own
 * are not, nor the account's slow-down (an attacker elsewhere must not gain from the owner's
 * success; it fades an hour after the last failure).
 */
export async function clearSignInFailures({ clientAddress, email }: Required<Attempt>) {
  await clearFailures(getDb(), failureKey.accountFromClient(email, clientAddress));
}
