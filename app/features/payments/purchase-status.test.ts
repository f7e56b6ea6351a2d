import { describe, expect, it } from "vitest";
import {
  canMove,
  purchaseStatusLabel,
  purchaseStatuses,
  statusesBelow,
  type PurchaseStatus,
} from "./purchase-status";

describe("purchase state machine", () => {
  it("moves a pending purchase to any final state", () => {
    for (const to of ["completed", "failed", "cancelled"] as const)
      expect(canMove("pending", to)).toBe(true);
  });

  it("moves a completed purchase only to withdrawn or refunded, a refunded one nowhere, and never back to pending", () => {
    expect(purchaseStatuses.filter((to) => canMove("completed", to))).toEqual([
      "withdrawn",
      "refunded",
    ]);
    expect(purchaseStatuses.filter((to) => canMove("withdrawn", to))).toEqual(["refunded"]);
    for (const to of purchaseStatuses) expect(canMove("refunded", to)).toBe(false);
    for (const from of purchaseStatuses) expect(canMove(from, "pending")).toBe(false);
  });

  it("refunds a completed or withdrawn purchase, and withdraws only a completed one", () => {
    expect(statusesBelow("refunded")).toEqual(["completed", "withdrawn"]);
    expect(statusesBelow("withdrawn")).toEqual(["completed"]);
  });

  it("lets a failed attempt still complete (the customer retried on the same checkout)", () => {
    expect(canMove("failed", "completed")).toBe(true);
    expect(statusesBelow("completed")).toEqual(["pending", "failed", "cancelled"]);
  });

  it("ends in the same state whatever the order of the events", () => {
    const events: PurchaseStatus[] = ["failed", "completed", "cancelled"];
    const permutations = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    const finals = permutations.map((order) =>
      order.reduce<PurchaseStatus>(
        (state, index) => (canMove(state, events[index]!) ? events[index]! : state),
        "pending",
      ),
    );
    expect(new Set(finals)).toEqual(new Set(["completed"]));
  });

  it("shows an unknown status as pending", () => {
    expect(purchaseStatusLabel("disputed")).toBe("Pendiente");
    expect(purchaseStatusLabel("completed")).toBe("Completado");
    expect(purchaseStatusLabel("refunded")).toBe("Reembolsado");
    expect(purchaseStatusLabel("withdrawn")).toBe("Desistido");
  });
});
