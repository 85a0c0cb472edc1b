import { describe, expect, it } from 'vitest'
import { mailtoHref } from './mailbox'

describe('mailtoHref', () => {
  it('links to the address alone', () => {
    expect(mailtoHref('ann@example.com')).toBe('mailto:ann@example.com')
    expect(mailtoHref('a+b@example.com')).toBe('mailto:a%2Bb@example.com')
  })

  it('keeps a stored address with a query from adding recipients or a subject', () => {
    const stored = 'bob@x.co?cc=a@evil.example&bcc=spy@evil.example&subject=hi'
    const href = mailtoHref(stored)
    expect(href).not.toMatch(/[?&]/)
    expect(new URL(href).search).toBe('')
    expect(decodeURIComponent(new URL(href).pathname)).toBe(stored)
  })
})
