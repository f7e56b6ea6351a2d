import { describe, expect, it } from "vitest";
import { CONSENT_KEY, PREFERENCES_KEY, readStoredConsent, storeConsent } from "./cookie-consent";

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

describe("cookie consent storage", () => {
  it("has no choice until one is stored", () => {
    expect(readStoredConsent(memoryStorage())).toBeNull();
  });

  it.each([
    ["accepted", true],
    ["rejected", false],
    ["custom", true],
    ["custom", false],
  ] as const)("stores %s with analytics %s under the spec's two keys", (choice, analytics) => {
    const storage = memoryStorage();
    storeConsent(storage, choice, analytics);
    expect(storage.getItem(CONSENT_KEY)).toBe(choice);
    expect(JSON.parse(storage.getItem(PREFERENCES_KEY)!)).toEqual({ essential: true, analytics });
    expect(readStoredConsent(storage)).toEqual({
      choice,
      preferences: { essential: true, analytics },
    });
  });

  it("ignores an unknown stored value and falls back safely on broken preferences", () => {
    const storage = memoryStorage();
    storage.setItem(CONSENT_KEY, "maybe");
    expect(readStoredConsent(storage)).toBeNull();
    storage.setItem(CONSENT_KEY, "custom");
    storage.setItem(PREFERENCES_KEY, "{broken");
    expect(readStoredConsent(storage)?.preferences).toEqual({ essential: true, analytics: false });
  });
});
