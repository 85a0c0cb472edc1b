// The backup worker starts here when run from source (`npm run dev`): worker threads do not
// inherit the server's tsx loader, so this plain module loads the TypeScript through tsx itself.
import { tsImport } from 'tsx/esm/api'

await tsImport('./backup-worker.server.ts', import.meta.url)
