// Lists the project's own files that the given entry points load at run time, with
// everything they import, transitively: no packages, and no files imported only for their
// types (tsx drops those imports too). The Dockerfile copies exactly these into the image.
//
//   node scripts/server-files.js server/index.ts scripts/backup.ts
import { build } from 'esbuild'

const entryPoints = process.argv.slice(2)
if (entryPoints.length === 0) {
  console.error('usage: node scripts/server-files.js ENTRY...')
  process.exit(2)
}
const { metafile } = await build({
  entryPoints,
  bundle: true,
  write: false,
  metafile: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outdir: 'unused',
  logLevel: 'error',
})
for (const file of Object.keys(metafile.inputs).sort()) console.log(file)
