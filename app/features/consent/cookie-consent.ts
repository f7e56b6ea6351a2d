/**
 * Cookie consent as stored in the browser (spec sections 3 and 4), kept as a record the company
 * can show (AEPD cookie guide 2023): the choice, the categories, when it was made and under which
 * version of the cookie policy. A record older than 24 months, or made under another version,
 * counts as no choice at all, so the banner asks again.
 */
export const CONSENT_KEY = "cookie-consent";
export const PREFERENCES_KEY = "cookie-preferences";
/** The banner waits this long before appearing (spec: 1 s). */
export const BANNER_DELAY_MS = 1_000;
/**
 * The date of the cookie policy's last revision, shown on /cookies. Change it whenever what the
 * site stores or measures changes: every visitor is then asked again.
 */
export const COOKIE_POLICY_VERSION = "2026-11-25";
/** The AEPD guide's ceiling for how long a choice may be relied on. */
export const CONSENT_LIFETIME_MONTHS = 24;

/**
 * The only cookie analytics consent allows (issue #17): first-party, it links the pages of one
 * visit and tells a returning visitor from a new one. Its lifetime is the cookie policy's.
 */
export const ANALYTICS_COOKIE = "analitica_visita";
export const ANALYTICS_COOKIE_MONTHS = 13;

/** Deletes the analytics cookie: withdrawing consent takes effect at once. */
export function forgetAnalyticsCookie(doc: Document) {
  doc.cookie = `${ANALYTICS_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

export type ConsentChoice = "accepted" | "rejected" | "custom";
export type CookiePreferences = { essential: true; analytics: boolean };
export type ConsentRecord = {
  choice: ConsentChoice;
  preferences: CookiePreferences;
  policyVersion: string;
  decidedAt: string;
};

export const defaultPreferences: CookiePreferences = { essential: true, analytics: false };

/** The stored record if it still holds: right version, younger than 24 months; otherwise null. */
export function readStoredConsent(storage: Storage, now = new Date()): ConsentRecord | null {
  const choice = storage.getItem(CONSENT_KEY);
  if (choice !== "accepted" && choice !== "rejected" && choice !== "custom") return null;
  const stored = parseStoredPreferences(storage.getItem(PREFERENCES_KEY));
  if (!stored || stored.policyVersion !== COOKIE_POLICY_VERSION) return null;
  const decidedAt = new Date(stored.decidedAt);
  if (Number.isNaN(decidedAt.getTime()) || decidedAt > now) return null;
  if (now >= consentExpiry(decidedAt)) return null;
  return {
    choice,
    preferences: { essential: true, analytics: stored.analytics },
    policyVersion: stored.policyVersion,
    decidedAt: stored.decidedAt,
  };
}

/** Whether analytics may run: only with a valid record that accepted it. */
export function analyticsAllowed(storage: Storage, now = new Date()) {
  return readStoredConsent(storage, now)?.preferences.analytics === true;
}

export function consentExpiry(decidedAt: Date) {
  const expiry = new Date(decidedAt);
  expiry.setUTCMonth(expiry.getUTCMonth() + CONSENT_LIFETIME_MONTHS);
  return expiry;
}

function parseStoredPreferences(raw: string | null) {
  try {
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (typeof value !== "object" || value === null) return null;
    const record = value as Record<string, unknown>;
    if (typeof record.policyVersion !== "string" || typeof record.decidedAt !== "string") {
      return null;
    }
    return {
      analytics: record.analytics === true,
      policyVersion: record.policyVersion,
      decidedAt: record.decidedAt,
    };
  } catch {
    return null;
  }
}

export function storeConsent(
  storage: Storage,
  choice: ConsentChoice,
  analytics: boolean,
  now = new Date(),
): ConsentRecord {
  const record: ConsentRecord = {
    choice,
    preferences: { essential: true, analytics },
    policyVersion: COOKIE_POLICY_VERSION,
    decidedAt: now.toISOString(),
  };
  storage.setItem(CONSENT_KEY, choice);
  storage.setItem(
    PREFERENCES_KEY,
    JSON.stringify({
      ...record.preferences,
      policyVersion: record.policyVersion,
      decidedAt: record.decidedAt,
    }),
  );
  return record;
}
