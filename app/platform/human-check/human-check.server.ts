import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { getConfig } from "../config.server";
import { getDb } from "../db/database.server";
import { visitorKey } from "../security/client-address.server";
import { hitRateLimit, type RateLimitRule } from "../security/rate-limit.server";
import { z } from "../validation/zod";

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

const text = z.string().check(z.maxLength(1024));
/**
 * The fields the verifier reads, with their types: anything else in a crafted payload would make
 * it throw. The parameters stay loose, because the signature covers all of them.
 */
const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.literal(ALGORITHM),
      nonce: text,
      salt: text,
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: text,
    }),
    signature: text,
  }),
  solution: z.object({ counter: z.number(), derivedKey: text }),
});

function decodePayload(raw: string): Payload | undefined {
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(raw, "base64").toString("utf8")));
    return parsed.success ? (parsed.data as Payload) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A proof of work as read from a post, checked without the database: `valid` when it is well
 * formed, unexpired and signed by us (or the check is off). A valid solution is good for one
 * submission: the caller counts a hit on `replay` (a limit of 1) where it stores what the proof
 * let through, and takes a second hit as a replay. No `replay` when the check is off.
 */
export type HumanProof =
  { valid: false } | { valid: true; replay?: { key: string; rule: RateLimitRule } };

/** Reads and checks a proof of work without marking it used (`verifyHumanCheck` does both). */
export async function readHumanCheck(raw: string | null | undefined): Promise<HumanProof> {
  if (!humanCheckEnabled()) return { valid: true };
  const payload = raw ? decodePayload(raw) : undefined;
  if (!payload) return { valid: false };
  let result: Awaited<ReturnType<typeof verifySolution>>;
  try {
    result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: getConfig().authSecret,
    });
  } catch {
    // A well-typed payload the verifier still cannot read is simply not a valid solution.
    return { valid: false };
  }
  if (!result.verified || result.expired) return { valid: false };
  return {
    valid: true,
    replay: {
      key: `altcha:${payload.challenge.signature}`,
      rule: { limit: 1, windowMs: VALIDITY_MS },
    },
  };
}

/**
 * True when the solution is valid, unexpired, signed by us and used for the first time (a
 * solved challenge is good for one submission, in every instance).
 */
export async function verifyHumanCheck(raw: string | null | undefined): Promise<boolean> {
  const proof = await readHumanCheck(raw);
  if (!proof.valid) return false;
  if (!proof.replay) return true;
  const firstUse = await hitRateLimit(getDb(), proof.replay.key, proof.replay.rule);
  return firstUse.allowed;
}

const CHALLENGE_WINDOW_MS = 10 * 60_000;

/**
 * A fresh signed challenge for the forms' human check. Each one costs a key derivation, so an
 * address gets as many as the account forms allow it attempts.
 */
export async function challengeResponse(clientAddress: string): Promise<Response> {
  if (!humanCheckEnabled()) return new Response("Not Found", { status: 404 });
  const limit = await hitRateLimit(getDb(), `altcha-challenge:ip:${visitorKey(clientAddress)}`, {
    limit: getConfig().authAddressRateLimit,
    windowMs: CHALLENGE_WINDOW_MS,
  });
  if (!limit.allowed)
    return new Response("Demasiados intentos", {
      status: 429,
      headers: { "Retry-After": String(limit.retryAfterSeconds), "Cache-Control": "no-store" },
    });
  return Response.json(await newChallenge(), { headers: { "Cache-Control": "no-store" } });
}
