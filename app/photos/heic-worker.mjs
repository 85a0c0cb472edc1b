// The HEIC decoder's worker starts here when run from source: worker threads do not inherit the
// server's tsx loader, so this plain module loads the TypeScript worker through tsx itself.
import { tsImport } from 'tsx/esm/api'

await tsImport('./heic-worker.server.ts', import.meta.url)
