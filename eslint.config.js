import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
  {
    // The catalogue is the base fact every feature stands on: it imports no other feature.
    files: ["app/features/catalogue/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/features/*", "!~/features/catalogue", "../*"],
              message: "The catalogue depends on no other feature.",
            },
          ],
        },
      ],
    },
  },
);
