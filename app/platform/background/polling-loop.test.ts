import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PollingLoop } from "./polling-loop";

const INTERVAL_MS = 5_000;

describe("PollingLoop", () => {
  let passes: number;
  let loop: PollingLoop;

  beforeEach(() => {
    vi.useFakeTimers();
    passes = 0;
    loop = new PollingLoop(async () => {
      passes++;
    }, INTERVAL_MS);
  });

  afterEach(async () => {
    await loop.stop();
    vi.useRealTimers();
  });

  it("runs a pass at start, then one interval after each", async () => {
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(passes).toBe(2);
  });

  it("defers the first pass by one interval when asked (the server's start)", async () => {
    loop.start({ deferFirstPass: true });
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(passes).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(1);
  });

  it("runs at once when woken before a deferred first pass", async () => {
    loop.start({ deferFirstPass: true });
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(passes).toBe(2);
  });
});
