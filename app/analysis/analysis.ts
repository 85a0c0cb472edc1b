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
 * One line of an order as the analysis read it from a message: a product of the farm's list (its
 * name in FARM_PRODUCTS), how many, and in which unit as the visitor counted ('dozen', 'jar',
 * 'kg', 'box'; '' for each one). 'two dozen eggs' is { product: 'eggs', quantity: 2, unit: 'dozen' };
 * 'half a dozen eggs' is 0.5 dozen; '6 eggs' is 6 of ''; '⅓ dozen eggs' is 4 of '' (quantities to the thousandth).
 */
export interface OrderLineRead {
  product: string
  quantity: number
  unit: string
}

/**
 * When they want it, resolved on the farm's clock: a day of the farm's calendar (YYYY-MM-DD), and
 * the hours when they said a time or a part of the day (HH:MM, or null), with the words they used.
 */
export interface PickUpWhen {
  date: string
  from: string | null
  to: string | null
  words: string
}

/** The most lines, and things not placed, an order read from one message keeps. */
export const maxOrderLines = 50
export const maxUnplaced = 10

/** An order as the analysis read it from a message; stored in the lead's analysis (`order`), null when none was read. */
export interface OrderRead {
  lines: OrderLineRead[]
  /** What looked ordered but named nothing on the farm's list, as written ('a bag of flour'). */
  unplaced: string[]
  /** Null: not said. */
  when: PickUpWhen | null
}

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
  /** The order it reads, when the message orders something; absent in leads read before orders were. */
  order?: OrderRead | null
}
