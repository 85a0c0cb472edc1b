// The backup copier starts here when run from source (`npm run dev`): a plain module that loads
// the TypeScript through tsx itself.
import { tsImport } from 'tsx/esm/api'

await tsImport('./backup-copier.server.ts', import.meta.url)
