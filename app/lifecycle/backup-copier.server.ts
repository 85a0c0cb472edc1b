import { backUpOnce, writeDownloadCopy } from './backup-files.server'
import type { CopyJob, CopyResult } from './backups.server'
import { textOf } from '#app/outside'

// Copying and checking a large database takes seconds of SQLite's time and memory of its own:
// a process of its own, so the site's event loop is never held and its memory never grows.
const job = JSON.parse(process.argv[2] ?? '{}') as CopyJob
let result: CopyResult
try {
  result =
    job.kind === 'backup'
      ? { ok: true, kind: 'backup', ...backUpOnce({ ...job, at: new Date(job.at) }) }
      : { ok: true, kind: 'download', ...writeDownloadCopy(job) }
} catch (error) {
  result = { ok: false, error: String(textOf(error, 'message') ?? error), code: textOf(error, 'code') ?? null }
}
process.stdout.write(JSON.stringify(result))
