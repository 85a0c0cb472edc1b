import * as z from 'zod/mini'
import { analysisSources, intents, sentimentLabels, spamSignals, urgencyLevels, type Analysis } from './analysis'

const shortText = (max: number) => z.string().check(z.minLength(1), z.maxLength(max))

function distinct(values: readonly unknown[]) {
  return new Set(values).size === values.length
}

/** What a reader's answer must be to be kept: an `Analysis`, within bounds. */
export const analysisSchema = z.object({
  intents: z
    .array(z.enum(intents))
    .check(z.minLength(1), z.refine(distinct, { error: 'Each intent may appear only once' })),
  products: z.array(shortText(60)).check(z.maxLength(50)),
  sentiment: z.object({
    label: z.enum(sentimentLabels),
    /** From -1 (angry) to 1 (delighted). */
    score: z.number().check(z.gte(-1), z.lte(1)),
  }),
  urgency: z.object({
    level: z.enum(urgencyLevels),
    /** The words that make it urgent, e.g. "tomorrow". */
    cues: z.array(shortText(40)).check(z.maxLength(10)),
  }),
  spam: z.object({
    isSpam: z.boolean(),
    reasons: z.array(z.enum(spamSignals)).check(z.refine(distinct, { error: 'Each reason may appear only once' })),
  }),
  source: z.enum(analysisSources),
}) satisfies z.ZodMiniType<Analysis>
