/**
 * The browser's side of the proof of work: fetches a challenge of `human-check.server.ts`
 * (altcha-lib v2, PBKDF2) and finds its counter as altcha-lib's `solveChallenge` does, in a few
 * hundred bytes and without its widget. Plain code, no DOM: it runs in Node too (tests).
 */

/** Where the forms get a signed challenge. */
export const CHALLENGE_URL = "/api/altcha/challenge";

/** A signed challenge, as the server sends it; its parameters go back untouched (signed). */
export type Challenge = {
  parameters: {
    algorithm: string;
    nonce: string;
    salt: string;
    cost: number;
    keyLength?: number;
    keyPrefix: string;
  };
  signature: string;
};

export type Solution = { counter: number; derivedKey: string };

/**
 * Derivations kept in flight at once. Chromium runs WebCrypto on one thread of its own, so
 * workers add nothing (measured: 0.15 ms per derivation on the main thread with 2 to 8 in flight,
 * 0.17 to 0.22 ms with 2 or 4 workers); a few in flight only hide the round trips to that thread.
 */
const LANES = 4;

const bytes = (hex: string) =>
  Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
const hex = (buffer: Uint8Array) =>
  Array.from(buffer, (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * The first counter found whose key, PBKDF2(password = nonce bytes + counter as a big-endian
 * uint32, salt bytes, cost, keyLength), starts with the key prefix (compared as lowercase hex,
 * which is what altcha-lib's byte comparison amounts to). Rejects when `signal` aborts.
 */
export async function solveChallenge(
  { parameters }: Challenge,
  signal?: AbortSignal,
): Promise<Solution> {
  const { algorithm, cost, keyLength = 32 } = parameters;
  if (!algorithm.startsWith("PBKDF2/")) throw new Error(`Unsupported algorithm: ${algorithm}`);
  const nonce = bytes(parameters.nonce);
  const salt = bytes(parameters.salt);
  const prefix = parameters.keyPrefix.toLowerCase();
  let found: Solution | undefined;
  const lane = async (first: number) => {
    const password = new Uint8Array(nonce.length + 4);
    password.set(nonce);
    const view = new DataView(password.buffer);
    for (let counter = first; !found; counter += LANES) {
      signal?.throwIfAborted();
      view.setUint32(nonce.length, counter);
      const key = await crypto.subtle.importKey("raw", password, "PBKDF2", false, ["deriveBits"]);
      const derivedKey = hex(
        new Uint8Array(
          await crypto.subtle.deriveBits(
            { name: "PBKDF2", salt, iterations: cost, hash: algorithm.slice(7) },
            key,
            keyLength * 8,
          ),
        ),
      );
      if (derivedKey.startsWith(prefix)) found ??= { counter, derivedKey };
    }
  };
  await Promise.all(Array.from({ length: LANES }, (_, first) => lane(first)));
  return found!;
}

/** What the form posts in its `altcha` field: base64 of the JSON of challenge and solution. */
export function encodePayload({ parameters, signature }: Challenge, solution: Solution): string {
  const json = new TextEncoder().encode(
    JSON.stringify({ challenge: { parameters, signature }, solution }),
  );
  return btoa(String.fromCharCode(...json));
}

/** A fresh challenge from `url`, solved: the value for the form's `altcha` field. */
export async function solveHumanCheck(url = CHALLENGE_URL, signal?: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`Challenge: ${response.status}`);
  const challenge = (await response.json()) as Challenge;
  return encodePayload(challenge, await solveChallenge(challenge, signal));
}
