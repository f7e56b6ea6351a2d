import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

export type HumanCheckPayload = { challenge: object; solution: object };

/**
 * What the browser widget submits for a challenge: base64 JSON of the challenge and its
 * solution, solved here as the browser would (optionally tampered with afterwards).
 */
export async function solveHumanCheck(
  challenge: Challenge,
  tamper?: (payload: HumanCheckPayload) => void,
): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution: solution!,
  };
  tamper?.(payload);
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}
