import type { Analysis } from '#app/analysis/analysis'
import type { LeadChange, ReplyKind, SpamReason, SubmissionStatus } from '#app/data/enums'

/** A submission as the API, the pages and the live link see it. */
export interface Submission {
  id: number
  name: string
  email: string
  message: string
  /** The analysis in words, shown as "AI Analysis". */
  aiResponse: string | null
  /** Null for submissions stored before analyses were kept, or when none could be made. */
  analysis: Analysis | null
  createdAt: string
  /** Why it was set aside as spam; null for the inbox. */
  spam: SpamReason[] | null
  /** Whether the owner has dealt with it. */
  status: SubmissionStatus
  /** Stored without an analysis (it failed or ran out of time), to be read again shortly. */
  awaitingAnalysis: boolean
  /** The latest mails the farm sent the visitor about it (replies, the acknowledgement), oldest first. */
  replies: Reply[]
  /** How many there are in all; the card says how many earlier ones it leaves out. */
  replyCount: number
  /** Who marked it handled or new, or took it out of spam, and when: the latest few, oldest first. */
  history: LeadEvent[]
  /** The farm's update this message answers (a reply to an update mail), when it is one. */
  answersUpdate: { id: number; subject: string } | null
}

/** One change to a lead by the team; `by` is null for an open inbox's anyone. */
export interface LeadEvent {
  change: LeadChange
  by: string | null
  at: string
}

const submissionId = /^\d{1,15}$/

/** Whether URL or form text names a submission: a whole number, as ids are. */
export function isSubmissionId(text: string): boolean {
  return submissionId.test(text)
}

/**
 * How many submissions in the inbox (spam left out) carry a tag the analysis gave, or a
 * status: what the filters and the header's "new" badge show.
 */
export interface TagCount {
  /** `delivery` counts mails to visitors that failed and wait for the owner (value `failed`). */
  kind: 'intent' | 'product' | 'urgency' | 'status' | 'delivery'
  value: string
  count: number
  /**
   * When the server read it, as a number that only rises (microseconds, or one more than the
   * last reading): of two readings of a count, however they travelled, the later one is true.
   */
  at: number
}

/** Where a mail to a visitor is, in the words the card shows; an answer read back is `received`. */
export type ReplyState = 'queued' | 'sent' | 'failed' | 'retrying' | 'bounced' | 'received'

/** A mail from the farm to the visitor (the owner's reply or the acknowledgement) as pages and the API see it. */
export interface Reply {
  id: number
  kind: ReplyKind
  text: string
  /** Whether `text` is cut (on a card's copy); the history API has every word. */
  cut: boolean
  createdAt: string
  state: ReplyState
  sentAt: string | null
  /** When it is tried again, while retrying. */
  retryAt: string | null
  /** The mail server's own words, when it failed or is retrying. */
  failure: string | null
  /** A failed mail the owner set aside. */
  dismissed: boolean
  /** Of an answer read back: who wrote it, when not the lead's own address; else null. */
  otherSender: string | null
  /** Of an answer read back: the files it came with (not kept), by name and size. */
  attachments: Array<{ name: string; bytes: number }>
  /** Of an answer read back: past what the site reads (over 1 MB, or too slow to read); `text` is its subject. */
  tooLarge: boolean
  /** Who of the team wrote it; null for the site's own mails, an answer, or an open inbox's. */
  by: string | null
}
