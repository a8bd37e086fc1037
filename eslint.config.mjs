// ESLint 9 flat config: Next's rules (React, react-hooks, Next, jsx-a11y, import) and typescript-eslint,
// plus the import boundaries of docs/architecture.md. `npm run lint` runs it with --max-warnings 0.
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/** The React Compiler's checks in eslint-plugin-react-hooks 7 (every rule but the two classic ones). */
const REACT_COMPILER_RULES = [
  "static-components", "use-memo", "preserve-manual-memoization", "incompatible-library", "immutability", "globals", "refs",
  "set-state-in-effect", "error-boundaries", "purity", "set-state-in-render", "unsupported-syntax", "config", "gating",
];

const config = [
  { ignores: [".next/**", "node_modules/**", "lib/server/db/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // `_`-prefixed names and rest siblings mark deliberately unused bindings ({ cursor: _cursor, ...rest }).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // No React here (the React code is in app/ and components/): the compiler's analysis costs half of lint's time and finds nothing.
    files: ["lib/**", "scripts/**", "e2e/**", "*.config.*"],
    rules: Object.fromEntries(REACT_COMPILER_RULES.map((rule) => [`react-hooks/${rule}`, "off"])),
  },
  {
    // Async server-component pages render once per request, so reading the request's clock there is not an impure re-render.
    files: ["app/**/page.tsx"],
    rules: { "react-hooks/purity": "off" },
  },
];

export default config;
