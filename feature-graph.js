/**
 * The feature folders of app/features and the only arrows between them: each folder lists the
 * features it may import. It is a DAG (tests/integration/architecture.test.ts proves it), drawn
 * in docs/architecture.md, and eslint.config.js fails any import outside it.
 */
export const featureDependencies = {
  admin: ["support", "payments", "billing", "analytics", "audit", "identity", "legal", "catalogue"],
  privacy: ["customer-area", "support", "payments", "audit", "identity", "catalogue"],
  "customer-area": ["accounts", "support", "payments", "identity", "catalogue"],
  accounts: ["audit", "identity", "catalogue"],
  support: ["audit", "identity", "catalogue"],
  marketing: ["contact", "payments", "layout", "seo", "catalogue"],
  contact: ["payments", "analytics", "identity", "catalogue"],
  payments: ["billing", "analytics", "audit", "identity", "catalogue"],
  billing: ["verifactu", "audit", "identity", "catalogue"],
  verifactu: [],
  analytics: ["consent", "catalogue"],
  audit: [],
  layout: ["seo", "consent", "catalogue"],
  seo: ["legal", "catalogue"],
  legal: ["consent"],
  consent: [],
  identity: [],
  catalogue: [],
};
