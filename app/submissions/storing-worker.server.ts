// The storing thread: it owns the connection that inserts submissions, so the fsync each
// commit waits for holds up this thread and never the server's.
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase } from '../db/database.server'
import { createSubmissionWriter } from './submission-store.server'
import type { StoreAnswer, StoreRequest, StoringData } from './storing-thread.server'

const { databasePath, mailsOwner } = workerData as StoringData
const { db } = openDatabase(databasePath)
const write = createSubmissionWriter(db, { mailsOwner })

parentPort?.on('message', ({ batch, submissions }: StoreRequest) =>
  parentPort?.postMessage({ batch, results: write(submissions) } satisfies StoreAnswer),
)
