// ESLint flat config. `npm run lint` runs this and then `prettier --check .`: Prettier owns formatting, so no style rules here.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "**/.wrangler/", ".data/", ".cache/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  // Type-aware rules: the whole tree takes 25-45 s on the 2-core machine (about 10 s without type information).
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Remix loaders and actions throw Responses (redirect, json, 404) by design; anything else thrown must be an Error.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "@remix-run/server-runtime", name: "TypedResponse" },
          ],
        },
      ],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      // Tests assert on untyped postgres.js rows (`any` columns); typing every ad-hoc query would add noise, not safety.
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  // Plain JavaScript outside tsconfig.json (this file, the socket guard preloaded into wrangler dev).
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  { files: ["app/**/*.{ts,tsx}"], ...reactHooks.configs.flat.recommended },
  { files: ["app/**/*.tsx"], ...jsxA11y.flatConfigs.recommended },
);
