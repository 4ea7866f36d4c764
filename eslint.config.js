// @ts-check
/**
 * Lint (`npm run lint`, also a suite of `npm test`): TypeScript rules, React hooks rules, and the
 * web app's import boundaries (DESIGN.md "Conventions"):
 *  - a feature folder of src/web imports only components/, lib/, api/, auth/ and src/domain, and
 *    another feature only through that feature's public module (`<feature>/public.ts`);
 *  - the shared folders (components/, lib/, api/, auth/) never import a feature or the app shell.
 * Import cycles are found by tests/api/architecture.test.ts in a second (import/no-cycle took a
 * third of the lint's time).
 */
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** The folders directly under `dir`. */
const folders = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

const web = "./src/web";
/** Code every screen family may use. */
const shared = ["components", "lib", "api", "auth"];
/** The screen families: every other folder of src/web (a new one is a feature the day it exists). */
const features = folders(web).filter((f) => !shared.includes(f) && f !== "public");

const server = "./src/server";
/** What every server feature may use: the HTTP layer, the database, links between two entities' records, the bulk engine, deletion snapshots. */
const serverShared = ["http", "db", "links", "bulk", "deleted"];
/** The server's features: every other folder of src/server. */
const serverFeatures = folders(server).filter((f) => !serverShared.includes(f));
const app = ["router.tsx", "main.tsx"];

const zones = [
  // Features reach each other only through the other's public module.
  ...features.flatMap((target) =>
    features
      .filter((from) => from !== target)
      .map((from) => ({
        target: `${web}/${target}`,
        from: `${web}/${from}`,
        except: ["./public.ts"],
        message: `Import from "${from}/public" (the feature's public module), not its internals.`,
      })),
  ),
  // Shared code never depends on a feature or on the app.
  ...shared.flatMap((target) => [
    ...features.map((from) => ({
      target: `${web}/${target}`,
      from: `${web}/${from}`,
      message: "Shared code cannot import a feature.",
    })),
    ...app.map((from) => ({
      target: `${web}/${target}`,
      from: `${web}/${from}`,
      message: "Shared code cannot import the app.",
    })),
  ]),
  // Features never import the app's entry points.
  ...features.flatMap((target) =>
    app.map((from) => ({
      target: `${web}/${target}`,
      from: `${web}/${from}`,
      message: "Features cannot import the app.",
    })),
  ),
  // Server features never import each other: what two share lives in http/, db/ or links/.
  ...serverFeatures.flatMap((target) =>
    serverFeatures
      .filter((from) => from !== target)
      .map((from) => ({
        target: `${server}/${target}`,
        from: `${server}/${from}`,
        message: "Server features do not import each other: move what both need to http/, db/ or links/.",
      })),
  ),
  ...serverShared.flatMap((target) =>
    serverFeatures.map((from) => ({
      target: `${server}/${target}`,
      from: `${server}/${from}`,
      message: "Shared server code cannot import a feature.",
    })),
  ),
  // The layering of tests/api/architecture.test.ts, as lint.
  { target: "./src/domain", from: "./src/server", message: "src/domain imports neither side." },
  { target: "./src/domain", from: "./src/web", message: "src/domain imports neither side." },
  { target: "./src/web", from: "./src/server", message: "The web app never imports the server." },
  { target: "./src/server", from: "./src/web", message: "The server never imports the web app." },
];

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      ".e2e-data*/**",
      "data/**",
      "scratch/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // The console's own code also gets the rules that read types (typescript-eslint's
  // recommendedTypeChecked: the no-unsafe-* family, no-base-to-string, unbound-method,
  // require-await...), so an `any` cannot flow in unseen. The tests and scripts keep the plain set:
  // they read answers as untyped JSON on purpose, and the type check covers them.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ["src/**/*.{ts,tsx}"] })),
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { import: importPlugin },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".mjs"] } },
      "import/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      // Cycles and boundaries concern our own code: dependencies are not parsed.
      "import/ignore": ["node_modules"],
      "import/external-module-folders": ["node_modules"],
    },
    rules: {
      "import/no-restricted-paths": ["error", { zones }],
      "import/no-self-import": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The kits every screen and route is built from stay functions a reader can hold: one that
    // grows past 80 lines is split into named parts, not commented.
    files: [
      "src/server/http/**/*.ts",
      "src/server/bulk/**/*.ts",
      "src/web/components/**/*.{ts,tsx}",
      "src/web/lib/**/*.{ts,tsx}",
    ],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Rules that read the types: a promise nobody awaits or handles, or one passed where a plain
    // callback is expected, is an error (write `void` where dropping it is meant).
    files: ["src/**/*.{ts,tsx}", "scripts/**/*.ts", "tests/**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Tests read answers of any shape; the console's own code says what it handles.
    files: ["tests/**/*.{ts,tsx}", "scripts/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["src/web/**/*.{ts,tsx}", "tests/components/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // The web app and the domain's schemas (which screens import) take their texts from the modules
    // of src/domain/messages/, never from the barrel (src/domain/messages.ts, which holds every
    // text): a screen's texts load with the screen, and the initial JavaScript holds those of
    // messages/common.ts only.
    files: ["src/web/**/*.{ts,tsx}", "src/domain/**/*.ts"],
    ignores: ["src/domain/messages.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)(domain/)?messages$",
              message:
                "Import the texts from their module (src/domain/messages/<feature>.ts, or common.ts), not from the barrel that holds every text.",
            },
          ],
        },
      ],
    },
  },
  {
    // What loads before any screen (the initial JavaScript, under 130 KB gzipped: README
    // "Benchmarks") stays free of zod, date-fns and the zod schemas of src/domain; screens load them.
    files: [
      "src/web/{main,router}.tsx",
      "src/web/*/routes.ts",
      "src/web/{auth,shell,login}/**/*.{ts,tsx}",
      "src/web/misc/NotFoundPage.tsx",
      "src/web/components/{ui,Menu,overlays,Logo}.tsx",
      "src/web/components/case.ts",
      "src/web/lib/{theme,query-client,url-search}.ts",
      "src/web/lib/routes.tsx",
      "src/web/api/client.ts",
    ],
    // The Change password, Sessions, Two-factor and Confirm-it-is-you dialogs are loaded with import() when first opened.
    ignores: [
      "src/web/auth/ChangePasswordModal.tsx",
      "src/web/auth/ReauthDialog.tsx",
      "src/web/auth/SessionsModal.tsx",
      "src/web/auth/TwoFactorSetup.tsx",
    ],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "zod",
                "zod/*",
                "date-fns",
                "date-fns/*",
                "**/domain/*",
                "!**/domain/messages",
                "!**/domain/messages/*",
                "!**/domain/sort-keys",
                "!**/domain/enums",
                "!**/domain/password-messages",
                "!**/domain/limits",
              ],
              allowTypeImports: true,
              message:
                "Loaded before any screen: keep zod, date-fns and the domain's schemas out (import them in a screen, or with import()).",
            },
          ],
        },
      ],
    },
  },
);
