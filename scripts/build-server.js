// Compiles the server to plain JavaScript beside the Remix build, so production runs `node`
// on it with no TypeScript loader: build/server.js (the composition root), the offline
// reader's worker and the backup script. Packages stay imports of node_modules.
//
//   node scripts/build-server.js      (part of `npm run build`)
import { build } from 'esbuild'

await build({
  entryPoints: {
    server: 'server/index.ts',
    'offline-worker': 'app/analysis/offline-worker.server.ts',
    backup: 'scripts/backup.ts',
  },
  outdir: 'build',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
})
