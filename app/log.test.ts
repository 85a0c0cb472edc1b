import { describe, expect, it } from 'vitest'
import { withoutWaysIn } from './log'

const token = 'A4t2oxtOXH833bubkYPfsjw28I3-Yu6KOwlUwSpXXpY'

describe('withoutWaysIn', () => {
  it('leaves out the token of an invitation or a claim link, however the path spells the way to it', () => {
    const spellings: Array<[string, string]> = [
      [`/set-up/${token}`, '/set-up/…'],
      [`/join/${token}`, '/join/…'],
      [`/SET-UP/${token}`, '/set-up/…'],
      [`/set-%75p/${token}`, '/set-up/…'],
      [`/set%2Dup/${token}`, '/set-up/…'],
      [`/x/../set-up/${token}`, '/x/../set-up/…'],
      [`/%2Fjoin/${token}`, '//join/…'],
      [`/set-up//${token}/more`, '/set-up/…'],
      [`Failed to decode param '/set-up/%${token}'`, `Failed to decode param '/set-up/…'`],
    ]
    for (const [path, logged] of spellings) expect(withoutWaysIn(path), path).toBe(logged)
  })

  it('leaves every other path as it came, escapes and all', () => {
    for (const path of ['/farm-sales', '/farm-sales/team', '/caf%C3%A9', '/join', '/updates/confirm', '/set-up'])
      expect(withoutWaysIn(path)).toBe(path)
  })
})
