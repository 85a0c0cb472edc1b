import { describe, expect, it } from 'vitest'
import english from '#app/language/compiled/en.form'
import { parseContactForm } from './contact-validation'

const valid = { name: 'Ann', email: 'ann@example.com', message: 'Hello' }

describe('parseContactForm', () => {
  it('accepts a complete form and keeps the values untrimmed', () => {
    const form = { name: ' Ann ', email: 'ann@example.com', message: ' Hello \r\n\tthere ' }
    expect(parseContactForm(form, english)).toEqual({ success: true, data: form })
  })

  it('drops fields it does not know', () => {
    expect(parseContactForm({ ...valid, admin: true }, english)).toEqual({ success: true, data: valid })
  })

  it.each([
    ['name', '', 'Name is required'],
    ['name', '   ', 'Name is required'],
    ['email', '', 'Email is required'],
    ['message', '', 'Message is required'],
    ['message', '\n\t ', 'Message is required'],
    ['email', 'ann', 'Invalid email format'],
    ['email', 'ann@example', 'Invalid email format'],
    ['email', 'ann@.com', 'Invalid email format'],
    ['email', 'ann@example.', 'Invalid email format'],
    ['email', 'a nn@example.com', 'Invalid email format'],
    ['email', 'ann@@example.com', 'Invalid email format'],
    ['email', 'bob@x.co?cc=a@evil.example&bcc=spy@evil.example&subject=hi', 'Invalid email format'],
    ['email', 'bob@x.co?bcc=spy', 'Invalid email format'],
    ['email', 'bob?bcc=spy@x.co', 'Invalid email format'],
    ['email', 'bob&x@x.co', 'Invalid email format'],
    ['email', 'bob%40evil.example@x.co', 'Invalid email format'],
    ['email', 'bob@x%2Eco.uk', 'Invalid email format'],
    ['email', 'bob@x.co bcc', 'Invalid email format'],
    ['email', 'bob@x..co', 'Invalid email format'],
    ['email', 'bob@-x.co', 'Invalid email format'],
    ['email', 'bob@x_y.co', 'Invalid email format'],
    ['email', 'bob@x.co/path', 'Invalid email format'],
    ['email', 'bob@[127.0.0.1]', 'Invalid email format'],
    ['email', '@x.co', 'Invalid email format'],
    ['name', 'x'.repeat(101), 'Name must be at most 100 characters'],
    ['email', `${'x'.repeat(250)}@b.co`, 'Email must be at most 254 characters'],
    ['message', 'x'.repeat(5001), 'Message must be at most 5,000 characters'],
    ['name', 'Ann\u0000', 'Name must not contain control characters'],
    ['email', 'ann@example.com\n', 'Email must not contain control characters'],
    ['message', 'Hi\u001b[31m', 'Message must not contain control characters'],
    ['name', 42, 'Name must be text'],
    ['email', ['ann@example.com'], 'Email must be text'],
    ['message', { text: 'Hi' }, 'Message must be text'],
    ['name', null, 'Name is required'],
  ])('rejects %s %j with "%s"', (field, value, message) => {
    expect(parseContactForm({ ...valid, [field]: value }, english)).toEqual({
      success: false,
      errors: { [field]: message },
    })
  })

  it.each([
    'ann@example.com',
    'Ann.Lee+eggs@mail.example.co.uk',
    "o'brien@farm-shop.example",
    'jürgen@bäckerei.example',
    'a@b.c',
  ])('accepts the email %s', (email) => {
    expect(parseContactForm({ ...valid, email }, english).success).toBe(true)
  })

  it('accepts values right at the limits', () => {
    const form = { name: 'x'.repeat(100), email: `${'x'.repeat(248)}@b.com`, message: 'x'.repeat(5000) }
    expect(form.email).toHaveLength(254)
    expect(parseContactForm(form, english).success).toBe(true)
  })

  it.each([null, 'name=Ann', 7, []])('treats a body of %j as an empty form', (input) => {
    expect(parseContactForm(input, english)).toEqual({
      success: false,
      errors: { name: 'Name is required', email: 'Email is required', message: 'Message is required' },
    })
  })
})
