import { eq } from 'drizzle-orm'
import type { FarmDatabase } from '#app/data/database.server'
import { availabilities } from '#app/data/enums'
import { weekList } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import { refuse, type Refusal } from '#app/http/refusal.server'
import type { ActivityLog } from '#app/team/activity.server'
import {
  availabilityWords,
  capitalised,
  isForSale,
  priceWords,
  stockSlack,
  stockTyped,
  stockWords,
  type WeekProduct,
} from './week'

type Edit = Omit<WeekProduct, 'product'>

/** The activity log's words for a change: 'Strawberries: Available now, €5 a punnet'. */
const changeWords = (product: string, edit: Edit) =>
  `This week’s list: ${capitalised(product)}, ${[availabilityWords[edit.availability], priceWords(edit), stockWords(edit), edit.note].filter(Boolean).join(', ')}`

/** A product counted down to nothing by orders is sold out, whatever the owner last chose. */
const soldOutAtZero = (item: WeekProduct): WeekProduct =>
  item.stock === 0 && isForSale(item.availability) ? { ...item, availability: 'sold-out' } : item

/** Undoes the save's transaction: the refusal is the answer. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.error)
  }
}

const sameCount = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) < stockSlack

const countWords = (stock: number | null) => (stock === null ? 'not counted' : `${stockTyped(stock)} left`)

/**
 * What is left once saved from the editor, whose form says the count it showed: orders take and
 * give back while the page is open. A count the owner left as shown keeps what is left now; one
 * changed from a count no longer so is refused, for the owner may have added to the old count or
 * counted afresh, and only they can say which.
 */
function stockToKeep(product: string, stored: number | null, edit: Edit, shown: number | null): number | null {
  if (sameCount(edit.stock, stored) || sameCount(edit.stock, shown)) return stored
  if (sameCount(shown, stored)) return edit.stock
  throw new Refused(
    refuse(
      409,
      `Orders changed what is left of ${product} since this page was opened: ${countWords(stored)} now, not ${countWords(shown)}. Nothing was saved: check the count and save again.`,
      'stock',
    ),
  )
}

/**
 * This week's list: the products of FARM_PRODUCTS (their names, the one list), each with how it
 * is for sale this week, kept in `week_list`. A product never set this season is not on the page.
 */
export function createWeekList({
  db,
  writes,
  products,
  activity,
  now = () => new Date(),
}: {
  db: FarmDatabase
  writes: Writes
  /** Each change is in the activity log, in the same transaction. */
  activity: Pick<ActivityLog, 'recordIn'>
  /** The products' names, from FARM_PRODUCTS as it is now. */
  products: () => string[]
  now?: () => Date
}) {
  const rows = () =>
    new Map(
      db
        .select()
        .from(weekList)
        .all()
        .map((row) => [row.product, row]),
    )

  /** Every product of FARM_PRODUCTS, set or not: the editor's list, in FARM_PRODUCTS' order. */
  function all(): Array<WeekProduct & { changedAt: Date | null }> {
    const kept = rows()
    return products().map((product) => {
      const row = kept.get(product)
      return row
        ? { ...row, changedAt: row.changedAt }
        : {
            product,
            availability: 'out-of-season',
            readyFrom: null,
            priceCents: null,
            unit: '',
            note: '',
            stock: null,
            changedAt: null,
          }
    })
  }

  return {
    all,
    /** What the home page shows: the products set, what is for sale first, and when the list last changed. */
    shown(): { items: WeekProduct[]; changedAt: Date | null } {
      const set = all().filter((item) => item.changedAt !== null)
      const changedAt = set.reduce<Date | null>(
        (last, item) => (!last || item.changedAt! > last ? item.changedAt : last),
        null,
      )
      // What is for sale first, then what is coming, then the rest: a stable sort keeps FARM_PRODUCTS' order within each.
      const items = set
        .map(({ changedAt: _, ...item }) => soldOutAtZero(item))
        .sort((a, b) => availabilities.indexOf(a.availability) - availabilities.indexOf(b.availability))
      return { items, changedAt }
    },
    /** One product of the list, set or not; undefined when FARM_PRODUCTS has no such product. */
    item: (product: string) => all().find((item) => item.product === product),
    /**
     * Saves one product's week; says whether it has just become for sale (the updates page then
     * proposes news). `opened`: saved from the editor, with the count it showed (see stockToKeep).
     */
    async save(
      product: string,
      edit: Edit,
      by: number | null,
      opened?: { stockShown: number | null },
    ): Promise<{ nowForSale: boolean } | Refusal> {
      const at = now()
      try {
        return await writes.whenFree(() =>
          db.transaction((tx) => {
            const before = tx.select().from(weekList).where(eq(weekList.product, product)).get()
            const stock = opened ? stockToKeep(product, before?.stock ?? null, edit, opened.stockShown) : edit.stock
            const kept = { ...edit, stock }
            tx.insert(weekList)
              .values({ product, ...kept, changedAt: at, changedBy: by })
              .onConflictDoUpdate({ target: weekList.product, set: { ...kept, changedAt: at, changedBy: by } })
              .run()
            activity.recordIn(tx, { kind: 'week-changed', by, detail: changeWords(product, kept) })
            const wasForSale = before !== undefined && isForSale(before.availability) && before.stock !== 0
            return { nowForSale: isForSale(kept.availability) && kept.stock !== 0 && !wasForSale }
          }),
        )
      } catch (error) {
        if (error instanceof Refused) return error.refusal
        throw error
      }
    },
  }
}

export type WeekList = ReturnType<typeof createWeekList>
