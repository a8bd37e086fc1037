// ESLint 9 flat config: Next's rules (React, react-hooks, Next, jsx-a11y, import) and typescript-eslint,
// plus the import boundaries of docs/architecture.md. `npm run lint` runs it with --max-warnings 0.
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

/** The React Compiler's checks in eslint-plugin-react-hooks 7 (every rule but the two classic ones). */
const REACT_COMPILER_RULES = [
  "static-components",
  "use-memo",
  "preserve-manual-memoization",
  "incompatible-library",
  "immutability",
  "globals",
  "refs",
  "set-state-in-effect",
  "error-boundaries",
  "purity",
  "set-state-in-render",
  "unsupported-syntax",
  "config",
  "gating",
];

/** Browser-side code: client components and the pure modules they use. It never reaches lib/server. */
const CLIENT = [
  "components",
  "lib/queries",
  "lib/charts",
  "lib/derived",
  "lib/format",
  "lib/audit",
  "lib/inspector",
  "lib/reviewer",
  "lib/copy",
  "lib/replay",
  "lib/run-view",
  "lib/api-docs",
  "lib/markdown",
  "lib/keys",
  "lib/run-list",
  "lib/endpoints",
  "lib/stats",
  "lib/experiments",
];

const PURE_CORE =
  "lib/core and lib/contracts import only zod, @noble/hashes/sha2.js (a pure hash), each other and themselves (architecture habit 1)";

const NO_RUNTIME_LOADING = [
  { selector: "ImportExpression", message: `${PURE_CORE}: no import() at run time.` },
  { selector: "CallExpression[callee.name='require']", message: `${PURE_CORE}: no require().` },
];

const config = [
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "lib/server/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "packages/sdk/dist/**",
      // CommonJS, read by dependency-cruiser only (the lint script runs it).
      ".dependency-cruiser.cjs",
    ],
  },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // `_`-prefixed names and rest siblings mark deliberately unused bindings ({ cursor: _cursor, ...rest }).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
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
  // Import boundaries (docs/architecture.md). import/no-restricted-paths resolves every import, relative ones included.
  {
    files: ["**/*.ts", "**/*.tsx"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./components",
              from: "./app",
              message: "components never import from app/: move the shared code into lib/ or components/.",
            },
            {
              target: CLIENT.map((dir) => `./${dir}`),
              from: "./lib/server",
              // The server actions modules: a client component that imports it gets references to the actions, not their code.
              except: ["./auth/actions.ts", "./people/actions.ts"],
              message: "Client code never imports lib/server: fetch through lib/queries, or take the value as a prop from the page.",
            },
          ],
        },
      ],
    },
  },
  {
    // The core's own checks (the resolver above does not see node: built-ins, nor run-time loading).
    files: ["lib/core/**/*.ts", "lib/contracts/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./lib/core", "./lib/contracts"],
              from: ".",
              except: ["./lib/core", "./lib/contracts", "./node_modules/zod", "./node_modules/@noble/hashes/sha2.js"],
              message: PURE_CORE,
            },
          ],
        },
      ],
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(?!zod$|@noble/hashes/sha2\\.js$|@/lib/(core|contracts)(/|$))[^.]", message: PURE_CORE }] },
      ],
      "no-restricted-syntax": ["error", ...NO_RUNTIME_LOADING],
    },
  },
  {
    // The OTLP decoders and mapping are pure too (docs/contract/otlp.md): bytes and values in, values out; the server reads
    // and decompresses bodies and stores what they map to. They may use the core and the contracts.
    files: ["lib/otlp/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./lib/otlp",
              from: ".",
              except: ["./lib/otlp", "./lib/core", "./lib/contracts", "./node_modules/zod"],
              message: "lib/otlp imports only zod, lib/core, lib/contracts and itself",
            },
          ],
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!zod$|@/lib/(core|contracts|otlp)(/|$))[^.]",
              message: "lib/otlp imports only zod, lib/core, lib/contracts and itself",
            },
          ],
        },
      ],
    },
  },
  {
    // The endpoint declarations are data: routing, docs, queries and prefetch are derived from them, on the server and in
    // the browser alike (architecture habit 2). They name contracts and nothing else.
    files: ["lib/endpoints/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./lib/endpoints",
              from: ".",
              except: ["./lib/endpoints", "./lib/contracts", "./node_modules/zod"],
              message: "lib/endpoints imports only zod, lib/contracts and itself",
            },
          ],
        },
      ],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!zod$|@/lib/(contracts|endpoints)(/|$))[^.]",
              message: "lib/endpoints imports only zod, lib/contracts and itself",
            },
          ],
        },
      ],
    },
  },
  {
    // The statistics are arithmetic on numbers: pure, for the server and the browser alike. They import nothing but each other.
    files: ["lib/stats/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "import/no-restricted-paths": [
        "error",
        { zones: [{ target: "./lib/stats", from: ".", except: ["./lib/stats"], message: "lib/stats imports only itself" }] },
      ],
      "no-restricted-imports": ["error", { patterns: [{ regex: "^[^.]", message: "lib/stats imports only itself" }] }],
    },
  },
  {
    // The core reads no clock, randomness or process state: time comes from the events (architecture habit 1).
    files: ["lib/core/**/*.ts", "lib/contracts/**/*.ts"],
    ignores: ["**/*.test.ts", "lib/core/spec/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "process", message: "The core reads no process state (architecture habit 1)." },
        { name: "performance", message: "The core reads no clock (architecture habit 1)." },
      ],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "The core reads no clock: time comes from the events (architecture habit 1)." },
        { object: "Math", property: "random", message: "The core reads no randomness (architecture habit 1)." },
      ],
      // Flat config replaces a rule's options per block, so this repeats the loading checks.
      "no-restricted-syntax": [
        "error",
        ...NO_RUNTIME_LOADING,
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: "The core reads no clock: new Date() without an argument is now (architecture habit 1).",
        },
      ],
    },
  },
  // Formatting is Prettier's (`npm run format`; `npm run lint` checks it): turn off the stylistic rules it owns.
  prettier,
];

export default config;
