import js from '@eslint/js'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { layers, roomPath, rooms } from './scripts/rooms.js'

const serverFolder = { group: ['\\#server/**'], message: 'app/ never imports the server that composes it' }
const serverOnly = { group: ['**/*.server'], message: 'Server-only module' }
const upward = { group: ['../*'], message: 'Import another folder as #app/…, #server/… or #tests/…' }

// The deliveries table is the delivery engine's: elsewhere what is owed is read and written through
// app/delivery's functions, so its states are written in one place. Besides the engine, the schema
// and what checks or measures the site (tests, the bench) may name it.
const deliveriesWords = 'Read or write deliveries through app/delivery (reads.server.ts, record.server.ts)'
const deliveriesTable = { name: '#app/data/schema', importNames: ['deliveries'], message: deliveriesWords }
const mayNameDeliveries = ['app/delivery/**', 'app/data/**', 'tests/**', 'bench/**', '**/*.test.{ts,tsx}']
const namesDeliveries = '/\\bdeliveries\\b/'
const runsSql = 'CallExpression[callee.property.name=/^(prepare|exec|run|raw)$/]'

/**
 * `no-restricted-imports` with these patterns for `files`, and the deliveries table too where it may
 * not be named: twice, since a later block's options replace an earlier's.
 */
const restrictedImports = ({ files, ignores = [], patterns }) => [
  { files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } },
  {
    files,
    ignores: [...ignores, ...mayNameDeliveries],
    rules: { 'no-restricted-imports': ['error', { patterns, paths: [deliveriesTable] }] },
  },
]

// Each room may import only the rooms scripts/rooms.js says; they stand in layers (checked here).
const roomZones = layers().flatMap((room) =>
  Object.keys(rooms)
    .filter((other) => other !== room && !rooms[room].includes(other))
    .map((other) => ({
      target: roomPath(room),
      from: roomPath(other),
      message: `app/${room} may not import app/${other} (scripts/rooms.js)`,
    })),
)

export default tseslint.config(
  {
    ignores: [
      'build/',
      'public/build/',
      'test-results/',
      'playwright-report/',
      'node_modules/',
      'data/',
      '.cache/',
      'bench/bare-remix/build/',
      'bench/bare-remix/public/',
      'bench/bare-remix/.cache/',
      // Made by app/language/compile-catalogs.ts from the catalogs (tsc checks them).
      'app/language/compiled/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
    rules: {
      'import-x/no-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // One import style: `./` within a folder, `#app/…`, `#server/…`, `#tests/…` beyond it.
  ...restrictedImports({
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['*.config.{ts,js}', 'tests/dev/vitest.config.ts', 'bench/bare-remix/**'],
    patterns: [upward],
  }),
  // Dependencies point inward: nothing in app/ reaches into the server that composes it.
  ...restrictedImports({ files: ['app/**/*.{ts,tsx}'], patterns: [upward, serverFolder] }),
  // Browser code must never reach for server-only modules; route modules may (Remix keeps
  // `.server` files out of the browser bundle), and so may server code and its tests.
  ...restrictedImports({
    files: ['app/**/*.{ts,tsx}'],
    ignores: [
      'app/**/*.server.{ts,tsx}',
      'app/**/*.test.{ts,tsx}',
      'app/routes/**',
      'app/root.tsx',
      'app/load-context.ts',
    ],
    patterns: [upward, serverFolder, serverOnly],
  }),
  {
    // Nor is the deliveries table named in SQL where it may not be: in an `sql` template, or a
    // string or template given to prepare, exec, run or sql.raw.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: mayNameDeliveries,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          `TaggedTemplateExpression[tag.name='sql'] > TemplateLiteral > TemplateElement[value.raw=${namesDeliveries}]`,
          `${runsSql} > Literal[value=${namesDeliveries}]`,
          `${runsSql} > TemplateLiteral > TemplateElement[value.raw=${namesDeliveries}]`,
        ].map((selector) => ({ selector, message: deliveriesWords })),
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: roomZones }] },
  },
  {
    // A service is modules a reader finds by their files' names, never one closure of hundreds of lines.
    files: ['app/**/*.{ts,tsx}', 'server/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 200 }] },
  },
)
