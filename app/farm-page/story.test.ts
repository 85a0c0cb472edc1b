import { describe, expect, it } from 'vitest'
import { storyProblem } from './page-form.server'
import { parseStory, safeHref } from './story'

describe('the farm’s story', () => {
  it('is paragraphs at blank lines, with links as pieces of their own', () => {
    expect(
      parseStory('We keep hens.\nAnd bees.\n\nSee [our market](https://market.example/stall) on Fridays.'),
    ).toEqual([
      [{ kind: 'words', text: 'We keep hens. And bees.' }],
      [
        { kind: 'words', text: 'See ' },
        { kind: 'link', text: 'our market', href: 'https://market.example/stall' },
        { kind: 'words', text: ' on Fridays.' },
      ],
    ])
  })

  it('keeps markup as the words it is', () => {
    expect(parseStory('<script>alert(1)</script> <b>bold</b>')).toEqual([
      [{ kind: 'words', text: '<script>alert(1)</script> <b>bold</b>' }],
    ])
  })

  it('takes https, http, mailto and tel links, and refuses the rest with words', () => {
    for (const href of ['https://a.example/', 'http://a.example/x', 'mailto:ann@farm.example', 'tel:+44 1234 567890']) {
      expect(safeHref(href), href).not.toBeNull()
    }
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<b>',
      '/farm-sales',
      '//evil.example',
      'vbscript:x',
      'https://',
    ]) {
      expect(safeHref(href), href).toBeNull()
    }
    expect(storyProblem('[Click](javascript:alert(1))')).toBeNull() // not a link: its parentheses end it early
    expect(storyProblem('[Click](javascript:alert%281%29)')).toMatch(
      /^The link “Click” goes nowhere a visitor can safely follow/,
    )
    expect(parseStory('[Click](javascript:alert%281%29)')).toEqual([[{ kind: 'words', text: 'Click' }]])
  })

  it('drops control and direction-override letters', () => {
    expect(parseStory('Eggs\u202e and\u0000 honey')).toEqual([[{ kind: 'words', text: 'Eggs and honey' }]])
  })

  it('refuses a story too long, with too many paragraphs or links', () => {
    expect(storyProblem('a'.repeat(5_001))).toBe('The story is 5001 characters long; at most 5000.')
    expect(storyProblem(Array.from({ length: 31 }, () => 'a').join('\n\n'))).toBe('At most 30 paragraphs in the story.')
    expect(storyProblem('[a](https://a.example) '.repeat(21))).toBe('At most 20 links in the story.')
    expect(storyProblem('Fine words.')).toBeNull()
  })
})
