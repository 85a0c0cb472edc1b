import Sqlite from 'better-sqlite3'
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator'
import { printable } from './backup-differences.server'

/** One thing in a database's schema: a table, index, trigger or view, with the SQL that made it. */
export interface SchemaObject {
  type: string
  name: string
  sql: string | null
}

// The migrations' own record and SQLite's statistics (ANALYZE) are not the migrations' schema; the
// indexes SQLite makes for a table's UNIQUE and PRIMARY KEY (renamed by VACUUM) come with its SQL.
const listed = (db: Sqlite.Database) =>
  new Map(
    (
      db
        .prepare(
          "SELECT type, name, sql FROM sqlite_schema WHERE NOT (type = 'table' AND name IN ('__drizzle_migrations', 'sqlite_stat1', 'sqlite_stat4')) AND NOT (type = 'index' AND sql IS NULL)",
        )
        .all() as SchemaObject[]
    ).map((object): [string, SchemaObject] => [`${object.type} ${object.name}`, object]),
  )

/** The schema these of the site's migrations make, built in memory. */
function schemaOfMigrations(applied: MigrationMeta[]): Map<string, SchemaObject> {
  const db = new Sqlite(':memory:')
  try {
    for (const migration of applied) {
      for (const statement of migration.sql) if (statement.trim()) db.exec(statement)
    }
    return listed(db)
  } finally {
    db.close()
  }
}

// Triggers, views and indexes before the tables they may stand on; a virtual table before the
// shadow tables it keeps its data in, which may only be dropped with it.
const dropOrder = ['trigger', 'view', 'index', 'table']
const dropRank = (object: SchemaObject) =>
  dropOrder.indexOf(object.type) * 2 + (/^CREATE VIRTUAL TABLE/i.test(object.sql ?? '') ? 0 : 1)

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`

/** The migrations' record as drizzle's migrator makes it. */
const migrationsRecord =
  'CREATE TABLE "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)'

/**
 * Makes a restored file's schema the migrations' own, before anything reads its tables: what
 * the migrations did not make (a trigger that copies every mail, a view, a table, an index) is
 * dropped and named; what they made but the file changed, or lacks, is refused (thrown), since
 * it cannot be put right without guessing. The migrations' record is written again from the
 * ones checked. The file is opened with its schema untrusted, so no function in it runs meanwhile.
 */
export function keepOnlyTheMigrationsSchema(path: string, migrationsFolder: string): string[] {
  const db = new Sqlite(path, { fileMustExist: true })
  try {
    db.pragma('trusted_schema = OFF')
    const hashes = db.prepare('SELECT hash FROM __drizzle_migrations ORDER BY created_at').pluck().all() as string[]
    const migrations = readMigrationFiles({ migrationsFolder })
    if (hashes.some((hash, n) => migrations[n]?.hash !== hash)) {
      throw new Error('its migrations are not this site’s, in this site’s order')
    }
    const applied = migrations.slice(0, hashes.length)
    const expected = schemaOfMigrations(applied)
    const found = listed(db)
    const changed = [...expected]
      .filter(([key, object]) => found.get(key)?.sql !== object.sql)
      .map(([, object]) => `${object.type} ${object.name}`)
    if (changed.length > 0) {
      throw new Error(
        `its schema differs from what the migrations make (${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''})`,
      )
    }
    const added = [...found]
      .filter(([key]) => !expected.has(key))
      .map(([, object]) => object)
      .sort((a, b) => dropRank(a) - dropRank(b))
    const dropped: string[] = []
    for (const object of added) {
      // One dropped already with another: a virtual table takes its shadow tables with it.
      if (!listed(db).has(`${object.type} ${object.name}`)) continue
      db.exec(`DROP ${object.type.toUpperCase()} ${quoted(object.name)}`)
      dropped.push(`${object.type} ${printable(object.name)}`)
    }
    // The migrations' own record, written again from what was checked: the migrator goes by its
    // times, which the file could have set to skip a migration or run one twice.
    db.transaction(() => {
      db.exec('DROP TABLE "__drizzle_migrations"')
      db.exec(migrationsRecord)
      const insert = db.prepare('INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)')
      for (const migration of applied) insert.run(migration.hash, migration.folderMillis)
    })()
    return dropped
  } finally {
    db.close()
  }
}
