import { describe, expect, it } from 'vitest'
import { safeRedirect } from './safe-redirect'

describe('safeRedirect', () => {
  it.each([
    ['/farm-sales', '/farm-sales'],
    ['/farm-sales?q=eggs#top', '/farm-sales?q=eggs#top'],
    ['/farm-sales/../sign-in', '/sign-in'],
    ['/farm sales', '/farm%20sales'],
    ['/ferme/œufs', '/ferme/%C5%93ufs'],
    // Encoded, a tab or backslash stays part of a path on this site.
    ['/%09/evil.example', '/%09/evil.example'],
    ['/%5Cevil.example', '/%5Cevil.example'],
  ])('keeps the path %j as %j', (to, expected) => {
    expect(safeRedirect(to)).toBe(expected)
  })

  it.each([
    '//evil.example',
    '///evil.example',
    '/.//evil.example',
    '/..//evil.example',
    '/%2e%2e//evil.example',
    '/%2E//evil.example',
    '/.\t//evil.example',
    '/a/..//evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    '/\t\\evil.example',
    'https://evil.example',
    'http:/evil.example',
    'javascript:alert(1)',
    ' /farm-sales',
    'evil.example',
    '',
    '/farm-sales\u0000',
    '/farm-sales\u001b[31m',
    '/\u007fevil',
  ])('sends %j to the inbox', (to) => {
    expect(safeRedirect(to)).toBe('/farm-sales')
  })

  it.each([null, undefined, 42, ['/farm-sales'], { to: '/' }])('sends %j to the inbox', (to) => {
    expect(safeRedirect(to)).toBe('/farm-sales')
  })

  it('never returns a character a header cannot hold', () => {
    for (const to of ['/a\u2028b', '/a b\u00a0c', '/日本', '/a?b=\u00e9', '/a#\ud83c\udf4e']) {
      expect(safeRedirect(to)).toMatch(/^\/[\x21-\x7e]*$/)
    }
  })
})
