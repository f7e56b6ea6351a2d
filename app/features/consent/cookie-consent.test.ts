import { describe, expect, it } from "vitest";
import {
  analyticsAllowed,
  CONSENT_KEY,
  COOKIE_POLICY_VERSION,
  PREFERENCES_KEY,
  readStoredConsent,
  storeConsent,
} from "./cookie-consent";

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => void values.delete(key),
    setItem: (key, value) => void values.set(key, String(value)),
  };
}

const decidedAt = new Date("2026-11-25T10:00:00Z");

function storageWith(choice: string, preferences: unknown) {
  const storage = memoryStorage();
  storage.setItem(CONSENT_KEY, choice);
  storage.setItem(PREFERENCES_KEY, JSON.stringify(preferences));
  return storage;
}

describe("cookie consent record", () => {
  it("has no choice until one is stored", () => {
    expect(readStoredConsent(memoryStorage())).toBeNull();
  });

  it.each([
    ["accepted", true],
    ["rejected", false],
    ["custom", true],
    ["custom", false],
  ] as const)(
    "stores %s with analytics %s, its date and the policy version",
    (choice, analytics) => {
      const storage = memoryStorage();
      storeConsent(storage, choice, analytics, decidedAt);
      expect(storage.getItem(CONSENT_KEY)).toBe(choice);
      expect(JSON.parse(storage.getItem(PREFERENCES_KEY)!)).toEqual({
        essential: true,
        analytics,
        policyVersion: COOKIE_POLICY_VERSION,
        decidedAt: "2026-11-25T10:00:00.000Z",
      });
      expect(readStoredConsent(storage, decidedAt)).toEqual({
        choice,
        preferences: { essential: true, analytics },
        policyVersion: COOKIE_POLICY_VERSION,
        decidedAt: "2026-11-25T10:00:00.000Z",
      });
    },
  );

  it("holds for 24 months and expires at the second anniversary", () => {
    const storage = memoryStorage();
    storeConsent(storage, "accepted", true, decidedAt);
    expect(readStoredConsent(storage, new Date("2028-11-25T09:59:59Z"))).not.toBeNull();
    expect(readStoredConsent(storage, new Date("2028-11-25T10:00:00Z"))).toBeNull();
    expect(analyticsAllowed(storage, new Date("2028-11-25T09:59:59Z"))).toBe(true);
    expect(analyticsAllowed(storage, new Date("2029-01-01T00:00:00Z"))).toBe(false);
  });

  it("counts a choice made under another policy version as no choice", () => {
    const storage = storageWith("accepted", {
      essential: true,
      analytics: true,
      policyVersion: "2025-01-01",
      decidedAt: decidedAt.toISOString(),
    });
    expect(readStoredConsent(storage, decidedAt)).toBeNull();
    expect(analyticsAllowed(storage, decidedAt)).toBe(false);
  });

  it("counts the old record without date or version as expired", () => {
    const storage = storageWith("accepted", { essential: true, analytics: true });
    expect(readStoredConsent(storage, decidedAt)).toBeNull();
  });

  it("refuses a date in the future or no date at all", () => {
    for (const stamp of ["2030-01-01T00:00:00Z", "yesterday-ish"]) {
      const storage = storageWith("accepted", {
        essential: true,
        analytics: true,
        policyVersion: COOKIE_POLICY_VERSION,
        decidedAt: stamp,
      });
      expect(readStoredConsent(storage, decidedAt), stamp).toBeNull();
    }
  });

  it("ignores an unknown choice and broken preferences", () => {
    const storage = memoryStorage();
    storage.setItem(CONSENT_KEY, "maybe");
    expect(readStoredConsent(storage)).toBeNull();
    storage.setItem(CONSENT_KEY, "custom");
    storage.setItem(PREFERENCES_KEY, "{broken");
    expect(readStoredConsent(storage)).toBeNull();
  });

  it("reads analytics as off unless it is exactly true", () => {
    const storage = storageWith("custom", {
      essential: true,
      analytics: "yes",
      policyVersion: COOKIE_POLICY_VERSION,
      decidedAt: decidedAt.toISOString(),
    });
    expect(readStoredConsent(storage, decidedAt)?.preferences).toEqual({
      essential: true,
      analytics: false,
    });
  });
});
