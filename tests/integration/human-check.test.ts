import { describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/platform/config.server";
import { newChallenge, verifyHumanCheck } from "~/platform/human-check/human-check.server";
import { loader as challengeLoader } from "~/routes/api-altcha-challenge";
import { solveHumanCheck, type HumanCheckPayload } from "../support/human-check";
import { withHumanCheckOn } from "../support/human-check-setting";
import { setupTestDatabase } from "../support/test-database";

setupTestDatabase();

withHumanCheckOn();

const solvedPayload = async (tamper?: (payload: HumanCheckPayload) => void) =>
  solveHumanCheck(await newChallenge(), tamper);

describe("the human check", () => {
  it("accepts a solved challenge once, and refuses it when replayed", async () => {
    const payload = await solvedPayload();
    expect(await verifyHumanCheck(payload)).toBe(true);
    expect(await verifyHumanCheck(payload)).toBe(false);
  });

  it("refuses a missing, garbled or forged solution", async () => {
    expect(await verifyHumanCheck(undefined)).toBe(false);
    expect(await verifyHumanCheck("not base64 json")).toBe(false);
    const wrongCounter = await solvedPayload((payload) => {
      (payload.solution as { counter: number }).counter += 1;
    });
    expect(await verifyHumanCheck(wrongCounter)).toBe(false);
    const cheaper = await solvedPayload((payload) => {
      (payload.challenge as { parameters: { cost: number } }).parameters.cost = 1;
    });
    expect(await verifyHumanCheck(cheaper)).toBe(false);
  });

  it("refuses, without throwing, fields of the wrong type in a crafted payload", async () => {
    const crafted = [
      (payload: { challenge: object; solution: object }) => {
        (payload.challenge as { signature: unknown }).signature = { length: 64 };
      },
      (payload: { challenge: object; solution: object }) => {
        (payload.challenge as { signature: unknown }).signature = Array(64).fill("a");
      },
      (payload: { challenge: object; solution: object }) => {
        (payload.solution as { derivedKey: unknown }).derivedKey = 42;
      },
      (payload: { challenge: object; solution: object }) => {
        (payload.challenge as { parameters: { salt: unknown } }).parameters.salt = ["x"];
      },
    ];
    for (const tamper of crafted)
      expect(await verifyHumanCheck(await solvedPayload(tamper))).toBe(false);
  });

  it("hands out challenges to one address only up to the per-address limit", async () => {
    const challengeFor = async (clientAddress: string) =>
      (await challengeLoader({
        context: { clientAddress },
      } as unknown as Parameters<typeof challengeLoader>[0])) as Response;
    const statuses: number[] = [];
    for (let request = 1; request <= 31; request++)
      statuses.push((await challengeFor("203.0.113.9")).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses[30]).toBe(429);
    expect((await challengeFor("203.0.113.10")).status).toBe(200);
  });

  it("is skipped when HUMAN_CHECK=off", async () => {
    process.env.HUMAN_CHECK = "off";
    resetConfigForTests();
    try {
      expect(await verifyHumanCheck(undefined)).toBe(true);
    } finally {
      process.env.HUMAN_CHECK = "altcha";
      resetConfigForTests();
    }
  });
});
