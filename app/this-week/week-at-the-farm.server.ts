import type { FarmDatabase } from '#app/data/database.server'
import type { Writes } from '#app/data/writes.server'
import type { ActivityLog } from '#app/team/activity.server'
import { createTellMe } from './tell-me.server'
import { createWeekList } from './week-list.server'
import { weekOffers } from './week'

/** This week at the farm: the list (its products are FARM_PRODUCTS') and the visitors' 'Tell me when it's ready'. */
export function weekAtTheFarm(needs: {
  db: FarmDatabase
  writes: Writes
  products: () => string[]
  activity: Pick<ActivityLog, 'recordIn'>
  farm: () => { name: string; timeZone: string }
  now?: () => Date
}) {
  const list = createWeekList(needs)
  return {
    list,
    tellMe: createTellMe({ ...needs, list }),
    /** What is for sale with a price, as schema.org Offers: the page's JSON-LD `makesOffer`. */
    offers: weekOffers,
  }
}

export type WeekAtTheFarm = ReturnType<typeof weekAtTheFarm>
