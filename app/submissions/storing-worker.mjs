// The storing thread starts here when the server runs from source: worker threads do not
// inherit the server's tsx loader, so this plain module loads the TypeScript worker itself.
import { tsImport } from 'tsx/esm/api'

await tsImport('./storing-worker.server.ts', import.meta.url)
