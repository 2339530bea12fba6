// @ts-check
// ESLint flat config (typescript-eslint's quick start, https://typescript-eslint.io/getting-started)
// plus the feature boundary: other code imports a feature only through its index.ts,
// and lib/, http/, db/ import no feature. `npm run lint`; scripts/feature-graph.mjs checks the
// same graph for mutual pairs and cycles.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";
import featureSignatures from "./eslint-rules/feature-signatures.js";

const restrict = (regex, message) => ({ "no-restricted-imports": ["error", { patterns: [{ regex, message }] }] });

export default defineConfig(
  globalIgnores([
    "packages/client/dist/",
    "dist/",
    "dist.tmp-*/",
    "packages/client/src/generated/",
    "contracts/out/",
    "data/",
    "coverage/",
    "test-results/",
  ]),
  {
    files: ["**/*.{js,mjs,ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly" } },
    plugins: { "import-x": importX },
  },
  {
    rules: {
      // tsc's noUnusedLocals is the real check; `_name` marks a deliberate omission ({ search: _search, ...row }).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
        },
      ],
      // A timer or handler a closure reads before its single assignment must stay `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // The XML/feed sanitisers and their tests match control characters on purpose.
      "no-control-regex": "off",
      // Flags the defensive `let ok = false; try { ok = verify(…) } catch { ok = false }` of the signature checks.
      "no-useless-assignment": "off",
      // The errors thrown in those catch blocks state a new condition (lock held, setting unreadable), not a wrapped one.
      "preserve-caught-error": "off",
      // `any` switches the checker off: say `unknown` and narrow (tests and benches below are exempt).
      "@typescript-eslint/no-explicit-any": "error",
      // Import order: packages (node: and npm) first, then the repository's own modules; one
      // import statement per module, all of them before any other statement. `eslint --fix` sorts.
      "import-x/first": "error",
      "import-x/no-duplicates": "error",
      "import-x/order": [
        "error",
        {
          groups: [
            ["builtin", "external"],
            ["internal", "parent", "sibling", "index"],
          ],
        },
      ],
      // Non-null assertions (`x!`) and `as` casts are counted, not banned: scripts/code-budget.mjs
      // (`npm run budget`, CI) fails when src/ has more than .code-budget.json allows.
    },
  },
  {
    // Tests and benches read untyped JSON bodies field by field.
    files: ["test/**", "bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Inside a feature: another feature only as `../<name>` (its index.ts), never `../<name>/<file>`.
    files: ["src/features/*/**"],
    ignores: ["src/features/web/client/**"],
    rules: restrict(
      "^\\.\\./(?!\\.\\.)[^/]+/",
      "import another feature through its index.ts (`../<feature>`), not its internal files",
    ),
  },
  {
    // Below the features: shared primitives never depend on a feature.
    files: ["src/lib/**", "src/http/**", "src/db/**"],
    rules: restrict("(^|/)features(/|$)", "lib/, http/ and db/ sit below the features and import none of them"),
  },
  {
    // app.ts, openapi.ts, jobs, start-up: features only through their index.ts.
    files: ["src/*.ts", "src/jobs/**", "src/cli/**"],
    rules: restrict("(^|/)features/[^/]+/", "import a feature through its index.ts (`./features/<feature>`)"),
  },
  {
    // Exported feature functions take (ctx, input): docs/architecture.md "The verb and its context".
    files: ["src/features/**/*.{ts,tsx}"],
    ignores: ["src/features/web/client/**"],
    plugins: { local: { rules: { "feature-signatures": featureSignatures } } },
    rules: { "local/feature-signatures": "error" },
  },
);
