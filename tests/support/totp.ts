import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * RFC 6238 TOTP for the tests (decision 044): the codes an authenticator app would show, computed
 * here from the secret the enrolment page shows as text, so the tests check the server against
 * an implementation of their own (HMAC-SHA-1, 6 digits, 30-second steps; RFC 4226 §5.3).
 */
export const TOTP_STEP_MS = 30_000;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The HOTP value of `counter` (RFC 4226), as 6 digits. */
export function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}

export const totpStep = (now = Date.now()) => Math.floor(now / TOTP_STEP_MS);

/** The code of a base32 `secret` at `step` (now by default). */
export function totpCode(secret: string, step = totpStep()): string {
  return hotp(base32Decode(secret), step);
}

/**
 * Tests in parallel workers share accounts (the test server's administrator) and the server
 * refuses a code used twice: each code is claimed once, in a directory of the test run, and
 * the secrets of the accounts enrolled are kept there for the other workers.
 */
export function runDirectory(): string {
  const dir = path.join(process.env.E2E_DATA_DIR ?? tmpdir(), "e2e-totp");
  mkdirSync(dir, { recursive: true });
  return dir;
}

const fileOf = (email: string) => path.join(runDirectory(), `secret-${email}`);

export function rememberSecret(email: string, secret: string) {
  writeFileSync(fileOf(email), secret.replace(/\s/g, ""));
}

export function secretOf(email: string): string | null {
  try {
    return readFileSync(fileOf(email), "utf8");
  } catch {
    return null;
  }
}

/** True once: whoever creates the directory first holds the lock (mkdir is atomic). */
export function claimOnce(name: string): boolean {
  try {
    mkdirSync(path.join(runDirectory(), name));
    return true;
  } catch {
    return false;
  }
}

/**
 * A code of `secret` nobody in this run has sent yet: this step's or the next's (the server
 * takes ±1 step). When both are taken, the next step is a clock's matter: the wait is until
 * the authenticator would show a new code, at most 30 s, which is what a person does too.
 */
export async function freshCode(email: string, secret: string): Promise<string> {
  for (;;) {
    const step = totpStep();
    for (const candidate of [step, step + 1]) {
      const code = totpCode(secret, candidate);
      if (claimOnce(`used-${email}-${code}`)) return code;
    }
    const untilNext = (step + 1) * TOTP_STEP_MS - Date.now() + 50;
    await new Promise((resolve) => setTimeout(resolve, untilNext));
  }
}
