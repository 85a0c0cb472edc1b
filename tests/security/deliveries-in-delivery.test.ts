import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '#tests/support/server'

// What is owed is read and written through app/delivery alone (eslint.config.js): a feature that
// imports the table, or names it in SQL, is refused by the lint, while the engine itself may.
const importsTheTable = `import { deliveries } from '#app/data/schema'\nexport const table = deliveries\n`
const namesItInSql = [
  `import { sql } from 'drizzle-orm'`,
  'export const waiting = sql`SELECT count(*) FROM deliveries WHERE state = ${"queued"}`',
  `export const raw = (db: { prepare: (text: string) => unknown }) => db.prepare('DELETE FROM deliveries')`,
  '',
].join('\n')
const prose = `export const words = 'Your deliveries of eggs come on Tuesdays.'\n`

const eslint = new ESLint({ cwd: projectRoot })

async function problems(text: string, path: string) {
  const [result] = await eslint.lintText(text, { filePath: join(projectRoot, path) })
  return result!.messages.filter((message) => /deliveries through app\/delivery/.test(message.message))
}

describe('the deliveries table outside app/delivery', () => {
  it('refuses importing it in a feature, and allows it in the engine', async () => {
    const found = await problems(importsTheTable, 'app/updates/somewhere.server.ts')
    expect(found.map((message) => message.ruleId)).toEqual(['no-restricted-imports'])
    expect(await problems(importsTheTable, 'app/delivery/somewhere.server.ts')).toEqual([])
  })

  it('refuses naming it in SQL in a feature or the server, and allows it in the engine', async () => {
    for (const path of ['app/updates/somewhere.server.ts', 'server/somewhere.ts']) {
      const found = await problems(namesItInSql, path)
      expect(found.map((message) => [message.ruleId, message.line])).toEqual([
        ['no-restricted-syntax', 2],
        ['no-restricted-syntax', 3],
      ])
    }
    expect(await problems(namesItInSql, 'app/delivery/somewhere.server.ts')).toEqual([])
  })

  it('leaves the word alone in prose', async () => {
    expect(await problems(prose, 'app/updates/somewhere.server.ts')).toEqual([])
  })
})
