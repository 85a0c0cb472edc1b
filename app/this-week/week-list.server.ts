import type { FarmDatabase } from '#app/data/database.server'
import { availabilities } from '#app/data/enums'
import { weekList } from '#app/data/schema'
import type { Writes } from '#app/data/writes.server'
import type { ActivityLog } from '#app/team/activity.server'
import { availabilityWords, capitalised, isForSale, priceWords, stockWords, type WeekProduct } from './week'

/** The activity log's words for a change: 'Strawberries: Available now, €5 a punnet'. */
const changeWords = (product: string, edit: Omit<WeekProduct, 'product'>) =>
  `This week’s list: ${capitalised(product)}, ${[availabilityWords[edit.availability], priceWords(edit), stockWords(edit), edit.note].filter(Boolean).join(', ')}`

/** A product counted down to nothing by orders is sold out, whatever the owner last chose. */
const soldOutAtZero = (item: WeekProduct): WeekProduct =>
  item.stock === 0 && isForSale(item.availability) ? { ...item, availability: 'sold-out' } : item

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
    /** Saves one product's week; says whether it has just become for sale (the updates page then proposes news). */
    async save(
      product: string,
      edit: Omit<WeekProduct, 'product'>,
      by: number | null,
    ): Promise<{ nowForSale: boolean }> {
      const before = rows().get(product)
      const at = now()
      await writes.whenFree(() =>
        db.transaction((tx) => {
          tx.insert(weekList)
            .values({ product, ...edit, changedAt: at, changedBy: by })
            .onConflictDoUpdate({ target: weekList.product, set: { ...edit, changedAt: at, changedBy: by } })
            .run()
          activity.recordIn(tx, { kind: 'week-changed', by, detail: changeWords(product, edit) })
        }),
      )
      const wasForSale = before !== undefined && isForSale(before.availability) && before.stock !== 0
      return { nowForSale: isForSale(edit.availability) && edit.stock !== 0 && !wasForSale }
    },
  }
}

export type WeekList = ReturnType<typeof createWeekList>
