import type { Intent } from '#app/analysis/analysis'

/**
 * What the offline reader looks for in a language besides English, in the phrase syntax of
 * cues.ts. Words are matched as written (accents folded): the lemmatiser knows only English, so
 * a language's usual forms are listed.
 */
export interface LanguageCues {
  intents: Partial<Record<Intent, Record<string, number>>>
  /** Time words that mean the visitor needs an answer within a day or two. */
  urgency: string[]
  /** Monday to Sunday, and the parts of a day that join one in a word ('Samstagvormittag'). */
  weekdays: string[]
  dayParts?: string[]
  /** Weekdays that are other words too ('segunda' is second, 'quinta' a farm): read only in this language. */
  shortWeekdays?: string[]
  /** January to December. */
  months: string[]
  /** Words beside a weekday that put it in the past, a week away, or every week ('samedi dernier', 'le samedi'). */
  notThisWeek: string[]
  /** Words that put a sentence's weekday a week or more away ('prochaine'). */
  later: string[]
  /** Words that put a sentence in the past: an order or a visit it tells of is not a new one ('hier', 'dernier'). */
  pastTimes: string[]
  /** Words a request is made with, so a sentence with them is not only a tale of the past. */
  asking: string[]
  spam: Record<string, number>
  /** Greetings and thanks: a sentence of only these is a greeting or a sign-off. */
  courtesy: string[]
  /** Short words common in the language and rare in the others: how a message is known to be written in it. */
  common: string[]
  /** The default products' words in this language that would mean something else in another ('mel', 'lam', 'pere'). */
  productWords?: Record<string, string[]>
  /**
   * Products as the first or last part of a compound word ('Rapshonig', 'Lammkeulen'), at least 4
   * letters; 'eier-' only as the first part ('Grillfeier' is a party).
   */
  compoundStems?: Record<string, string[]>
}
