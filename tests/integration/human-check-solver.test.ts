import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createChallenge, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it } from "vitest";
import {
  challengeResponse,
  newChallenge,
  verifyHumanCheck,
} from "~/platform/human-check/human-check.server";
import {
  encodePayload,
  solveChallenge,
  solveHumanCheck,
  type Challenge,
} from "~/platform/human-check/solver";
import { withHumanCheckOn } from "../support/human-check-setting";
import { setupTestDatabase } from "../support/test-database";

setupTestDatabase();

withHumanCheckOn();

/** The browser's solver (WebCrypto, as in Node), on a challenge of the server. */
const solved = async (challenge?: Challenge) => {
  challenge ??= (await newChallenge()) as Challenge;
  return { challenge, solution: await solveChallenge(challenge) };
};

describe("the browser's proof-of-work solver", () => {
  it("solves the server's challenges as its verification expects, once each", async () => {
    for (let round = 0; round < 5; round++) {
      const { challenge, solution } = await solved();
      expect(solution.derivedKey).toMatch(/^00[0-9a-f]{62}$/);
      const payload = encodePayload(challenge, solution);
      expect(await verifyHumanCheck(payload)).toBe(true);
      expect(await verifyHumanCheck(payload)).toBe(false);
    }
  });

  it("is refused when its solution or the challenge is tampered with", async () => {
    const { challenge, solution } = await solved();
    const other = await solved();
    const tampered = [
      encodePayload(challenge, { ...solution, counter: solution.counter + 1 }),
      encodePayload(challenge, {
        ...solution,
        derivedKey: `00${"0".repeat(62)}`,
      }),
      encodePayload(challenge, other.solution),
      encodePayload({ ...challenge, signature: other.challenge.signature }, solution),
      encodePayload({ ...challenge, parameters: { ...challenge.parameters, cost: 1 } }, solution),
    ];
    for (const payload of tampered) expect(await verifyHumanCheck(payload)).toBe(false);
    // The untouched one still passes: the refusals above did not spend it.
    expect(await verifyHumanCheck(encodePayload(challenge, solution))).toBe(true);
  });

  it("matches an odd-length key prefix as altcha-lib does (as lowercase hex)", async () => {
    const secret = "a-test-secret";
    const challenge = await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: 10,
      keyPrefix: "0A0",
      deriveKey,
      hmacSignatureSecret: secret,
    });
    const solution = await solveChallenge(challenge as Challenge);
    expect(solution.derivedKey.startsWith("0a0")).toBe(true);
    const result = await verifySolution({
      challenge,
      solution,
      deriveKey,
      hmacSignatureSecret: secret,
    });
    expect(result.verified).toBe(true);
  });

  it("stops when aborted", async () => {
    const challenge = (await newChallenge()) as Challenge;
    const impossible = {
      ...challenge,
      parameters: { ...challenge.parameters, keyPrefix: "f".repeat(64) },
    };
    const controller = new AbortController();
    const solving = solveChallenge(impossible, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(solving).rejects.toThrow();
  });

  it("fetches a challenge from the challenge route and gives the form's field value", async () => {
    const server = createServer((_request, response) => {
      void challengeResponse("203.0.113.77").then(async (answer) => {
        response.writeHead(answer.status, { "content-type": "application/json" });
        response.end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const value = await solveHumanCheck(`http://127.0.0.1:${port}/api/altcha/challenge`);
      expect(await verifyHumanCheck(value)).toBe(true);
    } finally {
      server.close();
    }
  });
});
