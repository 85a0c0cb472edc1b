import { describe, expect, it } from 'vitest'
import { ownProblem } from './field-checks'
import { fields } from './fields'
import { readChange, settingsChange } from './settings-change'

describe('a change of settings, read by the schema made from the declarations', () => {
  it('names every field of the page, and no other key', () => {
    expect(Object.keys(settingsChange.shape)).toEqual(fields.map((field) => field.key))
    expect(settingsChange.shape).not.toHaveProperty('OWNER_PASSWORD')
  })

  it('refuses keys that name no setting, prototype keys among them, in the order sent', () => {
    for (const [body, unknown] of [
      ['{"FARM_NAME":"x","OWNER_PASSWORD":"x","farm_name":"x"}', ['OWNER_PASSWORD', 'farm_name']],
      ['{"__proto__":{"FARM_NAME":"x"}}', ['__proto__']],
      ['{"constructor":"x","FARM_NAME":7}', ['constructor']],
    ] as const) {
      expect(readChange(JSON.parse(body)), body).toEqual({ ok: false, unknown })
    }
  })

  it('takes text or null for each field, and says of each other value that it is not text, reading the rest', () => {
    expect(readChange({ FARM_NAME: ' Bramble ', WEBHOOK_SECRET: null })).toEqual({
      ok: true,
      change: { FARM_NAME: ' Bramble ', WEBHOOK_SECRET: null },
      problems: {},
    })
    expect(readChange({ FARM_NAME: 7, BACKUP_KEEP: '14', UPDATES: true, SMTP_PORT: 587 })).toEqual({
      ok: true,
      change: { BACKUP_KEEP: '14' },
      problems: {
        FARM_NAME: 'Must be text, or null to take the default.',
        UPDATES: 'Must be text, or null to take the default.',
        SMTP_PORT: 'Must be text, or null to take the default.',
      },
    })
  })
})

describe("a value's own checks, by its field's kind", () => {
  it('says the first refusal: the length, then printable characters, then what the kind takes', () => {
    expect(ownProblem('UPDATES', 'x'.repeat(501))).toBe('At most 500 characters.')
    expect(ownProblem('FARM_PRODUCTS', 'eggs\nmilk')).toBeNull()
    expect(ownProblem('FARM_NAME', 'Bramble\nBcc: x')).toBe('Only printable characters, please.')
    expect(ownProblem('UPDATES', 'yes')).toBe('Must be true or false.')
    expect(ownProblem('UPDATES', 'true')).toBeNull()
    expect(ownProblem('SMTP_SECURITY', 'none')).toBe('One of starttls, tls, offered.')
    expect(ownProblem('IMAP_SECURITY', 'tls')).toBeNull()
    expect(ownProblem('SMTP_HOST', 'user@mail.example')).toBe('A host name such as smtp.farm.example.')
    expect(ownProblem('IMAP_HOST', 'imap.farm.example')).toBeNull()
    expect(ownProblem('SMTP_PORT', '70000')).toBe('A port from 1 to 65535.')
    expect(ownProblem('IMAP_PORT', '993')).toBeNull()
    expect(ownProblem('BACKUP_KEEP', '0')).toBeNull()
  })
})
