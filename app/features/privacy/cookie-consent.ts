/** Cookie consent as stored in the browser (spec sections 3 and 4). */
export const CONSENT_KEY = "cookie-consent";
export const PREFERENCES_KEY = "cookie-preferences";
/** The banner waits this long before appearing (spec: 1 s). */
export const BANNER_DELAY_MS = 1_000;

export type ConsentChoice = "accepted" | "rejected" | "custom";
export type CookiePreferences = { essential: true; analytics: boolean };

export const defaultPreferences: CookiePreferences = { essential: true, analytics: false };

export function readStoredConsent(storage: Storage): {
  choice: ConsentChoice;
  preferences: CookiePreferences;
} | null {
  const choice = storage.getItem(CONSENT_KEY);
  if (choice !== "accepted" && choice !== "rejected" && choice !== "custom") return null;
  return { choice, preferences: parsePreferences(storage.getItem(PREFERENCES_KEY)) };
}

function parsePreferences(raw: string | null): CookiePreferences {
  try {
    const value: unknown = raw ? JSON.parse(raw) : null;
    const analytics =
      typeof value === "object" &&
      value !== null &&
      "analytics" in value &&
      value.analytics === true;
    return { essential: true, analytics };
  } catch {
    return defaultPreferences;
  }
}

export function storeConsent(storage: Storage, choice: ConsentChoice, analytics: boolean) {
  const preferences: CookiePreferences = { essential: true, analytics };
  storage.setItem(CONSENT_KEY, choice);
  storage.setItem(PREFERENCES_KEY, JSON.stringify(preferences));
  return preferences;
}
