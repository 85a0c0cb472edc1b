// Compiles the server to plain JavaScript beside the Remix build, so production runs `node`
// on it with no TypeScript loader: build/server.js (the composition root), the offline
// reader's, the mail reader's and the HEIC decoder's workers, the backup copier, and the backup, restore and claim
// scripts. Packages stay imports of node_modules. Then the inbox's service worker, for the browser, as one small script.
//
//   node scripts/build-server.js      (part of `npm run build`)
import { build } from 'esbuild'

await build({
  entryPoints: {
    server: 'server/index.ts',
    'offline-worker': 'app/analysis/offline-worker.server.ts',
    'mail-reader': 'app/mail-back/mail-reader-worker.server.ts',
    'heic-worker': 'app/photos/heic-worker.server.ts',
    'backup-copier': 'app/lifecycle/backup-copier.server.ts',
    backup: 'scripts/backup.ts',
    restore: 'scripts/restore.ts',
    claim: 'scripts/claim.ts',
  },
  outdir: 'build',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
})

await build({
  entryPoints: { 'service-worker': 'app/push/service-worker.ts' },
  outdir: 'build',
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2020',
  minify: true,
  logLevel: 'warning',
})
