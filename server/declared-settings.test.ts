import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { defaults } from './config'
import { projectRoot } from '#tests/support/server'
import { settings, wokenBy } from '#app/settings/declared'
import { fields } from '#app/settings/fields'

/** The README's configuration table: each variable, its default cell and what it does. */
function readmeRows() {
  const lines = readFileSync(`${projectRoot}/README.md`, 'utf8').split('\n')
  const start = lines.findIndex((line) => /^\| Variable\s+\| Default/.test(line))
  expect(start).toBeGreaterThan(-1)
  const rows = []
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break
    const [variable, shown, does] = line
      .slice(1, -1)
      .split(' | ')
      .map((cell) => cell.trim())
    rows.push({ key: variable!.replace(/`/g, ''), shown: shown!, does: does! })
  }
  return rows
}

const environmentOnly = settings.filter((setting) => !setting.lockedBy)

describe('each setting is declared once', () => {
  it('names in the README’s table exactly the environment variables declared, with their defaults and limits', () => {
    const rows = readmeRows()
    expect(rows.map((row) => row.key).sort()).toEqual(environmentOnly.map((setting) => setting.key).sort())
    for (const row of rows) {
      const setting = settings.find((each) => each.key === row.key)!
      const literal = /^`([^`]*)`$/.exec(row.shown)?.[1]
      if (literal !== undefined)
        expect({ key: row.key, default: setting.default }).toEqual({ key: row.key, default: literal })
      // An unset default is said in words (unset, none, made and kept), never as a value.
      if (setting.default === '') expect(literal, row.key).toBeUndefined()
      const limits = /\((\d[\d,]*) to (\d[\d,]*)[ )]/.exec(row.does)
      if (limits) {
        const [min, max] = [limits[1], limits[2]].map((number) => Number(number!.replace(/,/g, '')))
        expect({ key: row.key, min: setting.min, max: setting.max }).toEqual({ key: row.key, min, max })
      }
    }
  })

  it('gives the environment its defaults and the settings page its fields from the same list', () => {
    expect(defaults).toEqual(Object.fromEntries(environmentOnly.map((setting) => [setting.key, setting.default])))
    const onThePage = settings.filter((setting) => setting.section)
    expect(fields.map((field) => field.key)).toEqual(onThePage.map((setting) => setting.key))
    for (const setting of settings) {
      if (setting.kind === 'whole-number') expect([setting.key, setting.min !== undefined]).toEqual([setting.key, true])
      if (setting.section) expect([setting.key, Boolean(setting.label)]).toEqual([setting.key, true])
    }
  })

  it('says what a change wakes: the mail server’s parts wake the owner’s mail and every mail sent', () => {
    expect([...wokenBy(['SMTP_HOST'])].sort()).toEqual(['owner mail', 'owner-mail', 'update-mail', 'visitor-mail'])
    expect([...wokenBy(['NOTIFY_EMAIL'])]).toContain('push')
    expect([...wokenBy(['WEBHOOK_SECRET', 'IMAP_PASSWORD', 'BACKUP_KEEP'])].sort()).toEqual([
      'backups',
      'mailbox',
      'webhook-post',
    ])
    expect([...wokenBy(['FARM_PRODUCT', 'UPDATES', 'NOT_A_SETTING'])]).toEqual([])
  })
})
