/** What the engine reads: what a visitor wrote, field by field. */
export interface Enquiry {
  name: string
  email: string
  message: string
}

/** What a message is about, as the owner would file it. */
export const intents = [
  'order',
  'product_inquiry',
  'pricing',
  'offers',
  'visit',
  'wholesale',
  'complaint',
  'feedback',
  'other',
] as const
export type Intent = (typeof intents)[number]

export const sentimentLabels = ['positive', 'neutral', 'negative'] as const
export type SentimentLabel = (typeof sentimentLabels)[number]

export const urgencyLevels = ['high', 'normal'] as const
export type UrgencyLevel = (typeof urgencyLevels)[number]

export const spamSignals = ['links', 'shouting', 'spam_phrasing', 'gibberish'] as const
export type SpamSignal = (typeof spamSignals)[number]

/** Who read the message: the built-in offline reader, or the configured language model. */
export const analysisSources = ['offline', 'llm'] as const
export type AnalysisSource = (typeof analysisSources)[number]

/**
 * The reading of one message; the same shape whichever reader produced it. Its schema (zod, in
 * analysis-schema.ts) is checked against it, and lives beside, so pages that only need these
 * words and types load no zod.
 */
export interface Analysis {
  intents: Intent[]
  products: string[]
  /** From -1 (angry) to 1 (delighted). */
  sentiment: { label: SentimentLabel; score: number }
  /** `cues`: the words that make it urgent, e.g. "tomorrow". */
  urgency: { level: UrgencyLevel; cues: string[] }
  spam: { isSpam: boolean; reasons: SpamSignal[] }
  source: AnalysisSource
}
