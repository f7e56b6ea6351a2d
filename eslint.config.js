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
    const patterns = [
      {
        regex: `^(~/features/|(\\.\\./)+(app/features/)?)(${forbidden.join("|")})(/|$)`,
        message: `${feature} may import only: ${allowed.join(", ") || "no other feature"} (feature-graph.js, docs/architecture.md).`,
      },
    ];
    return {
      files: [`app/features/${feature}/**/*.{ts,tsx}`],
      rules: { "no-restricted-imports": ["error", { patterns }] },
    };
  });
}

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
    rules: reactHooks.configs.recommended.rules,
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
              group: ["~/platform/db", "~/platform/db/*", "**/platform/db", "**/platform/db/*"],
              message: "Routes call their feature's *.server.ts for data.",
            },
          ],
        },
      ],
    },
  },
  ...featureBoundaries(),
  {
    // Platform and ui are the ground features stand on: they never import a feature.
    files: ["app/platform/**/*.{ts,tsx}", "app/ui/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^~/features(/|$)", message: "Platform and ui never import a feature." },
          ],
        },
      ],
    },
  },
);
