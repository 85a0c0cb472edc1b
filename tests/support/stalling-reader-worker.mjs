// Loads the stand-in reader worker through tsx, as offline-worker.mjs does the real one.
import { tsImport } from 'tsx/esm/api'

await tsImport('./stalling-reader-worker.ts', import.meta.url)
