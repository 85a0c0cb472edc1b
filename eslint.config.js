import js from '@eslint/js'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { layers, roomPath, rooms } from './scripts/rooms.js'

const serverFolder = { group: ['\\#server/**'], message: 'app/ never imports the server that composes it' }
const serverOnly = { group: ['**/*.server'], message: 'Server-only module' }
const upward = { group: ['../*'], message: 'Import another folder as #app/…, #server/… or #tests/…' }

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
  {
    // One import style: `./` within a folder, `#app/…`, `#server/…`, `#tests/…` beyond it.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['*.config.{ts,js}', 'tests/dev/vitest.config.ts', 'bench/bare-remix/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [upward] }] },
  },
  {
    // Dependencies point inward: nothing in app/ reaches into the server that composes it.
    files: ['app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [upward, serverFolder] }] },
  },
  {
    // Browser code must never reach for server-only modules; route modules may (Remix keeps
    // `.server` files out of the browser bundle), and so may server code and its tests.
    files: ['app/**/*.{ts,tsx}'],
    ignores: [
      'app/**/*.server.{ts,tsx}',
      'app/**/*.test.{ts,tsx}',
      'app/routes/**',
      'app/root.tsx',
      'app/load-context.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [upward, serverFolder, serverOnly] }] },
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
