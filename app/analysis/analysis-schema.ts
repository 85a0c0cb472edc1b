import * as z from 'zod/mini'
import {
  analysisSources,
  intents,
  maxOrderLines,
  maxUnplaced,
  sentimentLabels,
  spamSignals,
  urgencyLevels,
  type Analysis,
  type OrderRead,
} from './analysis'

const shortText = (max: number) => z.string().check(z.minLength(1), z.maxLength(max))

function distinct(values: readonly unknown[]) {
  return new Set(values).size === values.length
}

const clockTime = z.nullable(z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/)))

/** An order as read: bounded, so a message of a thousand lines stores no thousand lines. */
export const orderReadSchema = z.object({
  lines: z
    .array(
      z.object({
        product: shortText(60),
        quantity: z.number().check(z.gt(0), z.lte(100_000)),
        unit: z.string().check(z.maxLength(20)),
      }),
    )
    .check(z.maxLength(maxOrderLines)),
  unplaced: z.array(shortText(80)).check(z.maxLength(maxUnplaced)),
  when: z.nullable(
    z.object({
      date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
      from: clockTime,
      to: clockTime,
      words: shortText(60),
    }),
  ),
}) satisfies z.ZodMiniType<OrderRead>

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
  order: z.optional(z.nullable(orderReadSchema)),
}) satisfies z.ZodMiniType<Analysis>
