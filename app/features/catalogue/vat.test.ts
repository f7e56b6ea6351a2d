import { describe, expect, it } from "vitest";
import { services } from "./services";
import { splitVat } from "./vat";

describe("IVA of a final price", () => {
  it("splits a catalogue price into base and 21 % that add up to it", () => {
    expect(splitVat(14_900)).toEqual({ baseCents: 12_314, vatCents: 2_586, totalCents: 14_900 });
    expect(splitVat(44_900)).toEqual({ baseCents: 37_107, vatCents: 7_793, totalCents: 44_900 });
  });

  it("adds up to the cent for every catalogue price and for every amount up to 10,000 €", () => {
    const amounts = [...services.map((service) => service.priceCents)];
    for (let cents = 1; cents <= 1_000_000; cents += 97) amounts.push(cents);
    for (const total of amounts) {
      const { baseCents, vatCents } = splitVat(total);
      expect(baseCents + vatCents).toBe(total);
      // The tax is 21 % of the base, to within what rounding the base moved (1.21 x half a cent).
      expect(Math.abs(vatCents - baseCents * 0.21)).toBeLessThanOrEqual(0.605 + 1e-9);
      // So it is at most a cent from the base's 21 % rounded (449 €: 77,93 against 77,92), far
      // inside the ±10,00 € AEAT allows CuotaRepercutida (Validaciones VERI*FACTU §15.7,
      // error 1142); the total is what was charged (decision 064).
      expect(Math.abs(vatCents - Math.round(baseCents * 0.21))).toBeLessThanOrEqual(1);
    }
  });
});
