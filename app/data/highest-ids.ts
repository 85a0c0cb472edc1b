import { sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { highestIds } from './schema'

/**
 * A new row's id above every id its table ever gave, deleted ones too (kept in `highest_ids` by a
 * trigger on delete: drizzle/0014 for submissions, 0034 for orders): an id that named someone's
 * lead or order, in a tab left open or a link in a mail, never names another's.
 */
export const idAboveEveryOneGiven = (table: SQLiteTable, id: SQLiteColumn, tableName: string): SQL =>
  sql`(SELECT max(coalesce((SELECT max(${id}) FROM ${table}), 0), coalesce((SELECT ${highestIds.id} FROM ${highestIds} WHERE ${highestIds.tableName} = ${tableName}), 0)) + 1)`
