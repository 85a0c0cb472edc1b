import { describe, expect, it } from 'vitest'
import {
  acknowledgementPlaceholders,
  fillPlaceholders,
  placeholderError,
  productsInWords,
  replyPlaceholders,
} from './placeholders'

describe('placeholders', () => {
  it('fills {name}, {farm} and {products}, every time each appears', () => {
    expect(
      fillPlaceholders('Hello {name}, {farm} has {products}. {name}!', {
        name: 'Ann',
        farm: 'Bramble Hill Farm',
        products: 'eggs and honey',
      }),
    ).toBe('Hello Ann, Bramble Hill Farm has eggs and honey. Ann!')
  })

  it('leaves what is not a placeholder as it is, braces and all', () => {
    expect(fillPlaceholders('{{name}} {x} {}', { name: 'Ann' })).toBe('{Ann} {x} {}')
  })

  it('refuses the first unknown placeholder, saying which ones can be used', () => {
    expect(placeholderError('Hi {name}, {price} today', replyPlaceholders)).toBe(
      '{price} is not a placeholder this text can fill: use {name}, {farm} or {products}.',
    )
    expect(placeholderError('Hi {Name}', replyPlaceholders)).toMatch(/^\{Name\} is not a placeholder/)
    expect(placeholderError('Hi {}', replyPlaceholders)).toMatch(/^\{\} is not a placeholder/)
    expect(placeholderError('Hi {name} of {farm}: {products}', replyPlaceholders)).toBeNull()
  })

  it('lets the acknowledgement name only the farm, never what a visitor typed', () => {
    expect(placeholderError('Thanks from {farm}', acknowledgementPlaceholders)).toBeNull()
    expect(placeholderError('Thanks {name}', acknowledgementPlaceholders)).toBe(
      '{name} is not a placeholder this text can fill: use {farm}.',
    )
    expect(placeholderError('About {products}', acknowledgementPlaceholders)).not.toBeNull()
  })

  it('says the products as a person would', () => {
    expect(productsInWords([])).toBe('our produce')
    expect(productsInWords(['eggs'])).toBe('eggs')
    expect(productsInWords(['eggs', 'honey'])).toBe('eggs and honey')
    expect(productsInWords(['eggs', 'honey', 'apples'])).toBe('eggs, honey and apples')
  })
})
