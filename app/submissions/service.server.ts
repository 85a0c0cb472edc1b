import { asc, eq, lte, sql } from 'drizzle-orm'
import type { Analyse } from '#app/analysis/analyser.server'
import type { Analysis } from '#app/analysis/analysis'
import { quickSpamReading } from '#app/analysis/spam-signals'
import type { FarmDatabase } from '#app/data/database.server'
import { createWrites, type Writes } from '#app/data/writes.server'
import { idAboveEveryOneGiven } from '#app/data/highest-ids'
import { submissions, type SubmissionRow } from '#app/data/schema'
import type { SubmissionEvents } from '#app/live/events.server'
import type { Acknowledgements } from '#app/replies/acknowledgement.server'
import { withThread } from '#app/replies/threads.server'
import type { ContactFormErrors } from './contact-fields'
import { parseContactForm } from './contact-validation'
import { catalogs } from '#app/language/catalogs.server'
import type { Language } from '#app/language/languages'
import { writtenIn } from '#app/analysis/languages/written-in'
import { createGroupCommit } from './group-commit.server'
import { keptAddress } from '#app/leads/address.server'
import { leadView } from '#app/leads/lead-view.server'
import type { SpamReason } from '#app/data/enums'
import type { Submission } from '#app/leads/lead'

type NewSubmission = Required<
  Omit<typeof submissions.$inferInsert, 'id' | 'status' | 'analysisAttempts' | 'statusChangedBy'>
>

/** A message stored without an analysis is read again after this, then after twice as long each time. */
const firstRereadMs = 15_000
/** After this many more tries, it is the owner's to read as it is: listed, told and mailed without one. */
const mostRereads = 3

export type SubmitResult = { ok: true; submission: Submission } | { ok: false; errors: ContactFormErrors }

interface Dependencies {
  db: FarmDatabase
  events: SubmissionEvents
  analyse: Analyse
  /** Waits out another process's lock and counts what still fails. */
  writes?: Writes
  now?: () => Date
  /** When visitors are acknowledged (VISITOR_ACK): a clean lead's acknowledgement is queued in its transaction. */
  acknowledgements?: Acknowledgements | null
  /** What each lead may be owed (the owner's mail, the webhook's post, the phones' pushes), in turn, before its acknowledgement. */
  leadQueues?: LeadQueue[]
  /** Called once a commit may have owed something, so the delivery engine looks at once. */
  owed?: () => void
}

/** Something each lead may be owed: written in the lead's own transaction, sent once it is committed. */
export interface LeadQueue {
  /** Inside the transaction that keeps a lead (or reads it again); each decides what it owes. */
  queueFor(row: SubmissionRow, at: Date): void
}

/**
 * Why a submission is set aside: the traps it walked into, the quick spam signals (which need
 * no analysis) and what the analysis found; null to keep it.
 */
function spamReasons(trappedBy: SpamReason[], quick: Analysis['spam'], analysis: Analysis | null): SpamReason[] | null {
  const reasons = new Set<SpamReason>([
    ...trappedBy,
    ...(quick.isSpam ? quick.reasons : []),
    ...(analysis?.spam.isSpam ? analysis.spam.reasons : []),
  ])
  return reasons.size > 0 ? [...reasons] : null
}

/** Stores what visitors send: validated, analysed, committed with what it is owed, then told to the watchers. */
export function createSubmissionsService({
  db,
  events,
  analyse,
  writes = createWrites(),
  now = () => new Date(),
  acknowledgements = null,
  leadQueues = [],
  owed = () => {},
}: Dependencies) {
  const placeholder = (name: keyof NewSubmission) => sql.placeholder(name)
  // Prepared once: building and preparing the statement cost more than running it. A JSON
  // column would encode a null as the text 'null', and a time column cannot take a null, so
  // those take their text, number or NULL from insert.
  const preparedInsert = db
    .insert(submissions)
    .values({
      // Above every id ever given, deleted ones too (drizzle/0014), never one a tab may still show.
      id: idAboveEveryOneGiven(submissions, submissions.id, 'submissions'),
      name: placeholder('name'),
      email: placeholder('email'),
      message: placeholder('message'),
      aiResponse: placeholder('aiResponse'),
      analysis: sql`${placeholder('analysis')}`,
      createdAt: placeholder('createdAt'),
      spamReasons: sql`${placeholder('spamReasons')}`,
      reanalyseAt: sql`${placeholder('reanalyseAt')}`,
      senderKey: placeholder('senderKey'),
      answersUpdate: placeholder('answersUpdate'),
      mailId: placeholder('mailId'),
      language: placeholder('language'),
    })
    .returning()
    .prepare()
  const asJson = (value: unknown) => (value === null ? null : JSON.stringify(value))
  function insert(values: NewSubmission): SubmissionRow {
    const row = preparedInsert.get({
      ...values,
      analysis: asJson(values.analysis),
      spamReasons: asJson(values.spamReasons),
      reanalyseAt: values.reanalyseAt?.getTime() ?? null,
      language: values.language ?? null,
    })
    for (const queue of leadQueues) queue.queueFor(row, row.createdAt)
    acknowledgements?.queueFor(row, row.createdAt)
    return row
  }
  const commits = createGroupCommit({
    writeAll: (batch: NewSubmission[]) => db.transaction(() => batch.map(insert)),
    waitForLock: writes.waitForLock,
    failed: writes.failed,
  })

  /** A valid message read (analysed, its spam reasons found) and ready to store. */
  async function read(
    form: { name: string; email: string; message: string },
    trappedBy: SpamReason[],
    sender: string | undefined,
    answersUpdate: number | null,
    ready = () => {},
  ): Promise<NewSubmission> {
    const { analysis, aiResponse } = await analyse(form).finally(ready)
    const reasons = spamReasons(trappedBy, quickSpamReading(form), analysis)
    const at = now()
    return {
      ...form,
      email: keptAddress(form.email),
      // Kept with the lead, so its sender's share of acknowledgements holds when it is read again.
      senderKey: sender === undefined ? null : (acknowledgements?.senderKey(sender) ?? null),
      aiResponse,
      analysis,
      createdAt: at,
      spamReasons: reasons,
      reanalyseAt: analysis === null && reasons === null ? new Date(at.getTime() + firstRereadMs) : null,
      answersUpdate,
      mailId: null,
      language: writtenLanguage(form.message),
    }
  }

  /** Once stored: told to the watchers (not spam, nor a message that waits to be read), and sent what it is owed. */
  function stored(row: SubmissionRow): Submission {
    const submission = leadView(row)
    if (!submission.spam && !submission.awaitingAnalysis) {
      // An acknowledgement queued with it is on its card from the first.
      events.publish({
        type: 'NEW_SUBMISSION',
        data: acknowledgements?.owing() ? withThread(db, submission) : submission,
      })
    }
    owed()
    return submission
  }

  return {
    /**
     * Validate, analyse, store, and only once stored, tell the watchers. A valid submission
     * that walked into a spam trap, or that the analysis reads as spam, is stored too, set
     * aside with its reasons, and not broadcast.
     */
    async submit(
      input: unknown,
      trappedBy: SpamReason[] = [],
      sender?: string,
      language: Language | null = null,
    ): Promise<SubmitResult> {
      const form = parseContactForm(input, catalogs[language ?? 'en'])
      if (!form.success) return { ok: false, errors: form.errors }
      const ready = commits.preparing()
      const values = await read(form.data, trappedBy, sender, null, ready)
      // The language the page named (English kept as none), else the one the message is written in (the API names none).
      const row = await commits.write({
        ...values,
        language: language === null ? values.language : language === 'en' ? null : language,
      })
      return { ok: true, submission: stored(row) }
    },

    /**
     * A subscriber's answer to an update, read back from the farm's mailbox: a lead of its own,
     * read and checked for spam as a form's message is, stored in one transaction with
     * `alongside` (the mailbox's mark), so it is never stored twice.
     */
    async receiveAnswerToUpdate(
      message: { name: string; email: string; message: string },
      answering: { update: number; mailId: string },
      alongside: () => void,
    ): Promise<SubmitResult | { ok: true; repeated: true }> {
      const form = parseContactForm(message, catalogs.en)
      if (!form.success) return { ok: false, errors: form.errors }
      // Its sender's share of acknowledgements is counted as a form's is, by its address.
      const values = { ...(await read(form.data, [], form.data.email, answering.update)), mailId: answering.mailId }
      const row = await writes.whenFree(() =>
        db.transaction(() => {
          // The same mail again (delivered twice, or moved back into the folder) is the lead it made.
          const known = db
            .select({ id: submissions.id })
            .from(submissions)
            .where(eq(submissions.mailId, answering.mailId))
            .get()
          const written = known ? null : insert(values)
          alongside()
          return written
        }),
      )
      return row ? { ok: true, submission: stored(row) } : { ok: true, repeated: true }
    },

    /**
     * Reads again, one at a time, the messages stored without an analysis whose time has come.
     * Read, each is set aside as spam (and the watchers told it moved) or becomes a lead: told
     * to the watchers and owed its mail in the same transaction. One that still cannot be read
     * waits twice as long, and after the last try is the owner's to read as it is.
     */
    async readAgainDue(most = 20): Promise<number> {
      const due = db
        .select()
        .from(submissions)
        .where(lte(submissions.reanalyseAt, now()))
        .orderBy(asc(submissions.reanalyseAt))
        .limit(most)
        .all()
      for (const row of due) {
        const { analysis, aiResponse } = await analyse(row)
        const attempts = row.analysisAttempts + 1
        const matching = eq(submissions.id, row.id)
        if (analysis === null && attempts < mostRereads) {
          const later = new Date(now().getTime() + firstRereadMs * 2 ** attempts)
          await writes.whenFree(() =>
            db.update(submissions).set({ analysisAttempts: attempts, reanalyseAt: later }).where(matching).run(),
          )
          continue
        }
        const reasons = spamReasons([], quickSpamReading(row), analysis)
        const read = await writes.whenFree(() =>
          db.transaction((tx) => {
            // Set aside first, so the tags the analysis brings are not counted in the inbox.
            if (reasons) tx.update(submissions).set({ spamReasons: reasons }).where(matching).run()
            const written = tx
              .update(submissions)
              .set({ ...(analysis ? { analysis, aiResponse } : {}), analysisAttempts: attempts, reanalyseAt: null })
              .where(matching)
              .returning()
              .get()
            if (written) for (const queue of leadQueues) queue.queueFor(written, now())
            if (written) acknowledgements?.queueFor(written, now())
            return written
          }),
        )
        if (!read) continue
        // With its thread: the owner may have answered it while it waited.
        const submission = withThread(db, leadView(read))
        events.publish({ type: submission.spam ? 'SUBMISSION_UPDATED' : 'NEW_SUBMISSION', data: submission })
        owed()
      }
      return due.length
    },
  }
}

export type SubmissionsService = ReturnType<typeof createSubmissionsService>

/** The language a message is written in, as a lead keeps it: none for English (as the form always posted it), or when its words do not tell. */
function writtenLanguage(message: string): Language | null {
  const written = writtenIn(message)
  return written === 'en' ? null : written
}
