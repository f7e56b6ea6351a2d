import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { featureDependencies } from "./feature-graph.js";

/** One block per feature: it may import only the features feature-graph.js lists for it. */
function featureBoundaries() {
  const features = Object.keys(featureDependencies);
  return Object.entries(featureDependencies).map(([feature, allowed]) => {
    const forbidden = features.filter((other) => other !== feature && !allowed.includes(other));
    if (forbidden.length === 0) return {};
    // Through the alias, or a relative path climbing into another feature's folder.
    const regex = `^(~/features/|(\\.\\./)+(app/features/)?)(${forbidden.join("|")})(/|$)`;
    const message = `${feature} may import only: ${allowed.join(", ") || "no other feature"} (feature-graph.js, docs/architecture.md).`;
    return {
      files: [`app/features/${feature}/**/*.{ts,tsx}`],
      rules: {
        "no-restricted-imports": [
          "error",
          { patterns: [{ regex, message }, NO_ROUTES, NO_LOCAL_SERVICES] },
        ],
        "no-restricted-syntax": [
          "error",
          dynamicImportOf(regex, message),
          DYNAMIC_ROUTES,
          DYNAMIC_LOCAL_SERVICES,
          ...ONE_LOCALE,
        ],
      },
    };
  });
}

/**
 * A dynamic `import("…")` of a path `regex` matches: the same arrow as a static import. A slash
 * is written \x2F, as the selector's regex ends at the first "/".
 */
function dynamicImportOf(regex, message) {
  return {
    selector: `ImportExpression[source.value=/${regex.replaceAll("/", "\\x2F")}/]`,
    message,
  };
}

/**
 * The local services (an AEAT stand-in) answer as outside services do, for development and
 * tests: only the server's start loads them, dynamically, when configured; app/ never does.
 */
const LOCAL_SERVICES = "(^|/)local-services(/|$)";
const NO_LOCAL_SERVICES = {
  regex: LOCAL_SERVICES,
  message: "Only server.ts loads a local service, when configured (docs/architecture.md).",
};
const DYNAMIC_LOCAL_SERVICES = dynamicImportOf(LOCAL_SERVICES, NO_LOCAL_SERVICES.message);

/** Routes sit above features: a feature never imports one. */
const ROUTES = "^(~/routes|(\\.\\./)+routes)(/|$)";
const NO_ROUTES = {
  regex: ROUTES,
  message: "Features never import a route (docs/architecture.md).",
};
const DYNAMIC_ROUTES = dynamicImportOf(ROUTES, NO_ROUTES.message);

/** Platform stands under ui and features: it reaches neither, by alias or by relative path. */
const ABOVE_PLATFORM = "^(~/(features|ui)|(\\.\\./)+(app/)?(features|ui))(/|$)";
const ABOVE_PLATFORM_MESSAGE = "Platform never imports a feature or ui (docs/architecture.md).";
/** Ui stands under features. */
const ABOVE_UI = "^(~/features|(\\.\\./)+(app/)?features)(/|$)";
const ABOVE_UI_MESSAGE = "Ui never imports a feature (docs/architecture.md).";

/**
 * The site's language is said once, in app/platform/locale.ts (decision 079): a locale or a
 * `lang` written out anywhere else in app/ fails, so a second language starts from one place.
 */
const LOCALE_MESSAGE = "The site's language comes from SITE_LOCALE (app/platform/locale.ts).";
const ONE_LOCALE = [
  { selector: "Literal[value=/^es[-_]ES$/]", message: LOCALE_MESSAGE },
  { selector: "JSXAttribute[name.name='lang'][value.value=/^es/]", message: LOCALE_MESSAGE },
  { selector: "TemplateElement[value.raw=/lang=.es/]", message: LOCALE_MESSAGE },
];

export default tseslint.config(
  {
    ignores: [
      "build/",
      "node_modules/",
      ".react-router/",
      "data/",
      "test-results/",
      "playwright-report/",
      "bench/out/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-syntax": ["error", ...ONE_LOCALE],
    },
  },
  {
    // A route is its guard, one call into its feature and its page: data access stays in features.
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "drizzle-orm", message: "Routes call their feature's *.server.ts for data." },
          ],
          patterns: [
            {
              group: [
                "drizzle-orm/*",
                "~/platform/db",
                "~/platform/db/*",
                "**/platform/db",
                "**/platform/db/*",
              ],
              message: "Routes call their feature's *.server.ts for data.",
            },
            NO_LOCAL_SERVICES,
          ],
        },
      ],
      "no-restricted-syntax": ["error", DYNAMIC_LOCAL_SERVICES, ...ONE_LOCALE],
    },
  },
  ...featureBoundaries(),
  {
    // Platform is the ground everything stands on: it never imports ui or a feature.
    files: ["app/platform/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: ABOVE_PLATFORM, message: ABOVE_PLATFORM_MESSAGE }, NO_LOCAL_SERVICES],
        },
      ],
      "no-restricted-syntax": [
        "error",
        dynamicImportOf(ABOVE_PLATFORM, ABOVE_PLATFORM_MESSAGE),
        DYNAMIC_LOCAL_SERVICES,
        ...ONE_LOCALE,
      ],
    },
  },
  {
    // Ui (the design system and the form kit) stands on platform only.
    files: ["app/ui/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: ABOVE_UI, message: ABOVE_UI_MESSAGE }] },
      ],
      "no-restricted-syntax": ["error", dynamicImportOf(ABOVE_UI, ABOVE_UI_MESSAGE), ...ONE_LOCALE],
    },
  },
  {
    // The one place that says the site's language.
    files: ["app/platform/locale.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        dynamicImportOf(ABOVE_PLATFORM, ABOVE_PLATFORM_MESSAGE),
        DYNAMIC_LOCAL_SERVICES,
      ],
    },
  },
);
