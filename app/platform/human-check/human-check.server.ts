import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { getConfig } from "../config.server";
import { getDb } from "../db/database.server";
import { hitRateLimit } from "../security/rate-limit.server";

/**
 * Self-hosted proof of work (ALTCHA): the browser spends a fraction of a second per form, which
 * costs a bot sending thousands of them dearly. No third party, no cookie.
 */
const ALGORITHM = "PBKDF2/SHA-256";
const COST = 1_000;
const VALIDITY_MS = 10 * 60_000;

/** The form field the widget fills with its solution. */
export const HUMAN_CHECK_FIELD = "altcha";

export function humanCheckEnabled(): boolean {
  return getConfig().humanCheck !== "off";
}

export function newChallenge(): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    deriveKey,
    hmacSignatureSecret: getConfig().authSecret,
    expiresAt: new Date(Date.now() + VALIDITY_MS),
  });
}

type Payload = { challenge: Challenge; solution: Solution };

function decodePayload(raw: string): Payload | undefined {
  try {
    const value = JSON.parse(Buffer.from(raw, "base64").toString("utf8")) as Partial<Payload>;
    if (!value.challenge?.parameters || !value.challenge.signature || !value.solution)
      return undefined;
    return value as Payload;
  } catch {
    return undefined;
  }
}

/**
 * True when the solution is valid, unexpired, signed by us and used for the first time (a
 * solved challenge is good for one submission, in every instance).
 */
export async function verifyHumanCheck(raw: string | null | undefined): Promise<boolean> {
  if (!humanCheckEnabled()) return true;
  const payload = raw ? decodePayload(raw) : undefined;
  if (!payload || payload.challenge.parameters.algorithm !== ALGORITHM) return false;
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: getConfig().authSecret,
  });
  if (!result.verified || result.expired) return false;
  const firstUse = await hitRateLimit(getDb(), `altcha:${payload.challenge.signature}`, {
    limit: 1,
    windowMs: VALIDITY_MS,
  });
  return firstUse.allowed;
}
