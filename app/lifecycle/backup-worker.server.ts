import { parentPort } from 'node:worker_threads'
import { backUpOnce, writeDownloadCopy } from './backup-files.server'
import type { CopyJob, CopyResult } from './backups.server'

// Copying and checking a large database takes seconds of SQLite's time: off the server's thread.
parentPort!.on('message', (job: CopyJob) => {
  let result: CopyResult
  try {
    result =
      job.kind === 'backup'
        ? { ok: true, kind: 'backup', ...backUpOnce({ ...job, at: new Date(job.at) }) }
        : { ok: true, kind: 'download', ...writeDownloadCopy(job) }
  } catch (error) {
    result = { ok: false, error: (error as Error).message, code: (error as { code?: string }).code ?? null }
  }
  parentPort!.postMessage(result)
})
