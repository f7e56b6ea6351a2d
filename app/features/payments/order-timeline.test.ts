import { describe, expect, it } from "vitest";
import { canWithdraw, lastDayOfPeriod } from "./after-sale-status";
import { orderTimeline, sentence } from "./order-timeline";

/** An instant given as Madrid's wall-clock time in winter (UTC+1). */
const madrid = (local: string) => new Date(`${local}+01:00`);

const paid = {
  status: "completed",
  completedAt: madrid("2026-12-01T10:00:00"),
  deliveryStatus: "pending",
  withdrawalRequestedAt: null,
};

describe("the 14 days, counted as the law counts them", () => {
  it("leave out the day of the contract and end with the fourteenth day after it (CC art. 5)", () => {
    expect(lastDayOfPeriod(madrid("2026-12-01T10:00:00"))).toBe("2026-12-15");
    // The Madrid day counts, whatever the hour (23:30 in Madrid is 22:30 UTC, 00:10 is 23:10 UTC
    // of the day before).
    expect(lastDayOfPeriod(madrid("2026-12-01T23:30:00"))).toBe("2026-12-15");
    expect(lastDayOfPeriod(madrid("2026-12-01T00:10:00"))).toBe("2026-12-15");
    // Across a month's and a year's end, holidays included (días naturales).
    expect(lastDayOfPeriod(madrid("2026-12-25T12:00:00"))).toBe("2027-01-08");
  });

  it("keep 'Desistir del contrato' open to the end of the last day, Madrid time", () => {
    expect(canWithdraw(paid, madrid("2026-12-15T23:59:00"))).toBe(true);
    expect(canWithdraw(paid, madrid("2026-12-16T00:00:30"))).toBe(false);
    expect(
      canWithdraw({ ...paid, deliveryStatus: "delivered" }, madrid("2026-12-02T00:00:00")),
    ).toBe(false);
  });
});

describe("an order's timeline", () => {
  const now = madrid("2026-12-03T09:00:00");

  it("tells a paid order as paid, then the delivery still to come, and counts it", () => {
    const timeline = orderTimeline(paid, now);
    expect(timeline.steps.map((step) => [step.key, step.state])).toEqual([
      ["paid", "done"],
      ["in_progress", "upcoming"],
      ["delivered", "upcoming"],
    ]);
    expect(timeline).toMatchObject({
      label: "Completado",
      countsInTotals: true,
      deliveryOpen: true,
      refundOpen: true,
      retry: false,
      withdrawalOpenUntil: "2026-12-15",
      refundDueBy: null,
    });
  });

  it("tells a withdrawn order with the date the refund is due, closes delivery and leaves the totals", () => {
    const timeline = orderTimeline(
      {
        ...paid,
        status: "withdrawn",
        deliveryStatus: "in_progress",
        withdrawalRequestedAt: madrid("2026-12-02T18:00:00"),
      },
      now,
    );
    expect(timeline.steps.map((step) => [step.key, step.state])).toEqual([
      ["paid", "done"],
      ["in_progress", "done"],
      ["withdrawn", "done"],
      ["refunded", "upcoming"],
    ]);
    expect(timeline.steps.at(-1)!.details[0]).toMatch(/^A más tardar el 16 dic 2026 \(14 días/);
    expect(timeline).toMatchObject({
      label: "Desistido",
      countsInTotals: false,
      deliveryOpen: false,
      refundOpen: true,
      withdrawalOpenUntil: null,
      refundDueBy: "2026-12-16",
    });
  });

  it("tells a refund with its date, its reason once and who made it; nothing stays open", () => {
    const refundedAt = madrid("2026-12-04T12:00:00");
    const timeline = orderTimeline(
      {
        ...paid,
        status: "refunded",
        deliveryStatus: "in_progress",
        refundReason: "El cliente no lo necesita.",
        refundedAt,
        refundedBy: { name: "Ana Gil", email: "ana@example.com" },
      },
      now,
    );
    const refund = timeline.steps.at(-1)!;
    expect(refund).toMatchObject({ key: "refunded", at: refundedAt, state: "done" });
    expect(refund.details).toEqual([
      "Motivo: El cliente no lo necesita",
      "Por Ana Gil (ana@example.com)",
    ]);
    // The delivery reached stays told; the stages never reached are not promised any more.
    expect(timeline.steps.map((step) => step.key)).toEqual(["paid", "in_progress", "refunded"]);
    expect(timeline).toMatchObject({
      label: "Reembolsado",
      countsInTotals: false,
      deliveryOpen: false,
      refundOpen: false,
    });
  });

  it("offers a failed or cancelled payment again, and counts neither", () => {
    for (const status of ["failed", "cancelled"])
      expect(orderTimeline({ ...paid, status, completedAt: null }, now)).toMatchObject({
        retry: true,
        countsInTotals: false,
        deliveryOpen: false,
        refundOpen: false,
      });
    expect(orderTimeline({ ...paid, status: "pending", completedAt: null }, now).retry).toBe(false);
  });

  it("says a reason once, without a doubled full stop", () => {
    expect(sentence("Duplicado.")).toBe("Duplicado");
    expect(sentence("Duplicado. . ")).toBe("Duplicado");
    expect(sentence("Sin punto")).toBe("Sin punto");
  });
});
