// The reading pool's worker starts here: worker threads do not inherit the server's tsx
// loader, so this plain module loads the TypeScript worker through tsx itself.
import { tsImport } from 'tsx/esm/api'

await tsImport('./offline-worker.server.ts', import.meta.url)
