/**
 * The feature folders of app/features and the only arrows between them: each folder lists the
 * features it may import. It is a DAG (tests/integration/architecture.test.ts proves it), drawn
 * in docs/architecture.md, and eslint.config.js fails any import outside it.
 */
export const featureDependencies = {
  admin: ["support", "payments", "billing", "verifactu", "analytics", "identity", "catalogue"],
  privacy: ["customer-area", "support", "payments", "identity", "catalogue"],
  "customer-area": ["accounts", "support", "payments", "identity", "catalogue"],
  accounts: ["identity", "catalogue"],
  support: ["identity", "catalogue"],
  marketing: ["contact", "payments", "layout", "seo", "catalogue"],
  contact: ["payments", "analytics", "identity", "catalogue"],
  payments: ["billing", "analytics", "identity", "catalogue"],
  billing: ["verifactu", "identity", "catalogue"],
  verifactu: [],
  analytics: ["consent", "catalogue"],
  layout: ["seo", "consent", "catalogue"],
  seo: ["legal", "catalogue"],
  legal: ["consent"],
  consent: [],
  identity: [],
  catalogue: [],
};
