// ESLint for the whole repository (`npm run lint`): Next.js's rules (core web vitals, React hooks) plus
// typescript-eslint's type-aware rules, which read the TypeScript programs of tsconfig.json (every source
// file) and tsconfig.eslint-mjs.json (the repository's own .mjs files).
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

export default defineConfig([
  // Build output, reports, generated migration snapshots and local data: nothing a person writes.
  globalIgnores([
    ".next/**",
    ".data/**",
    "bench/results/**",
    // The typed client's generated types (openapi-typescript) and its build output.
    "clients/typescript/src/schema.ts",
    "clients/typescript/dist/**",
    "coverage/**",
    "drizzle/meta/**",
    "e2e/screenshots/**",
    "next-env.d.ts",
    "playwright-report/**",
    "public/**",
    "test-results/**",
    // Third-party files kept as released (vendor/scalar-api-reference: scripts/vendor-scalar.ts).
    "vendor/**",
  ]),

  js.configs.recommended,
  ...nextVitals,
  ...nextTypescript,
  // The type-checked half of typescript-eslint's recommended set (Next's config brings the rest): promises
  // that are neither awaited nor handled, awaits of non-promises, `any` leaking out of untyped values,
  // assertions the compiler already knows, template/`+` operands that stringify objects.
  ...tseslint.configs.recommendedTypeCheckedOnly,

  {
    languageOptions: {
      parserOptions: {
        // The TypeScript programs of tsconfig.json and, for the .mjs files it leaves out (allowJs is off
        // there), of tsconfig.eslint-mjs.json, so the promise rules reach bin/fdp-mcp.mjs's top-level awaits.
        // Whole programs rather than typescript-eslint's project service: on a clean clone (no cache) the
        // service took 144 CPU-seconds for the repository and the programs 95 (2026-11-30, `time npx eslint .`).
        project: ["./tsconfig.json", "./tsconfig.eslint-mjs.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // A new member of a union (an audit event, a score grade) must reach every switch over it; a
      // `default` branch is the explicit way to say "the rest are alike".
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // Type-only imports are erased, so a module imported only for its types is never loaded. `import("x").T`
      // in a type position is erased as well, hence allowed.
      "@typescript-eslint/consistent-type-imports": ["error", { prefer: "type-imports", disallowTypeAnnotations: false }],
      // From the strict set, two rules about promises where a mistake changes what runs: `return promise`
      // inside try/catch skips the catch; spreading a promise or a function copies nothing useful.
      "@typescript-eslint/return-await": ["error", "error-handling-correctness-only"],
      "@typescript-eslint/no-misused-spread": "error",
      // An async function without await still turns a throw into a rejection, and the ones here implement
      // promise-returning contracts (route handlers, MCP tools, operation runners): dropping `async` to
      // satisfy this rule would make their throws synchronous.
      "@typescript-eslint/require-await": "off",
      // FormData.get is string | File. The dashboard's forms have no file inputs, so a File in a text field
      // comes only from a forged request, which gets the text "[object File]": wrong text like any other.
      "@typescript-eslint/no-base-to-string": ["error", { ignoredTypeNames: ["Error", "RegExp", "URL", "URLSearchParams", "File"] }],
      // A leading underscore marks a binding kept on purpose: a rest sibling omitted from a copy, a
      // parameter a signature requires. Next's config makes these two warnings; --max-warnings 0 fails on
      // them anyway, so they are errors here.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/no-unused-expressions": "error",
    },
  },

  {
    // Hooks live in the React code: app/, components/ and lib/'s .tsx PDF documents. Elsewhere these rules
    // only misread names (a Playwright fixture's `use`, test helpers named `useIngestServer`) and spend time
    // running the React Compiler over every function.
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["app/**", "components/**", "lib/**/*.tsx"],
    rules: Object.fromEntries(
      Object.keys(nextVitals.find((config) => config.name === "next").rules)
        .filter((rule) => rule.startsWith("react-hooks/"))
        .map((rule) => [rule, "off"]),
    ),
  },
  {
    // JavaScript has no annotations: what these few .mjs files import or parse is `any` by nature.
    files: ["**/*.mjs"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
    },
  },
  {
    // Tests read response bodies (`await res.json()`) and mock arguments as `any` and then assert on them:
    // the assertion is the check, a cast in front of it would only repeat the expected shape.
    files: ["tests/**", "e2e/**"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    // The partner samples stand alone: their dependencies (the typed client from clients/typescript, jose)
    // are installed in their own folder, outside this project's types. Linted without type information.
    files: ["samples/**"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { project: false } },
  },
]);
