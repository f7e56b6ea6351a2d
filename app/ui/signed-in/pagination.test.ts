import { describe, expect, it } from "vitest";
import { pageSlots } from "./pagination";

describe("pageSlots", () => {
  it("offers the first and last pages and the current one's neighbours, with gaps", () => {
    expect(pageSlots(1, 40_000, false)).toEqual([1, 2, "gap", 40_000]);
    expect(pageSlots(20, 40_000, false)).toEqual([1, "gap", 19, 20, 21, "gap", 40_000]);
    expect(pageSlots(40_000, 40_000, false)).toEqual([1, "gap", 39_999, 40_000]);
  });

  it("shows a single left-out number instead of a gap", () => {
    expect(pageSlots(4, 7, false)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageSlots(1, 3, false)).toEqual([1, 2, 3]);
  });

  it("leaves out the last page when the total is only a lower bound", () => {
    expect(pageSlots(5, 400, true)).toEqual([1, "gap", 4, 5, 6]);
  });
});
