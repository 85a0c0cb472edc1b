import { describe, expect, it } from 'vitest'
import { draftNews, priceWords, readPrice, readWeekEdit, weekOffers, type WeekProduct } from './week'

const item = (over: Partial<WeekProduct>): WeekProduct => ({
  product: 'strawberries',
  availability: 'available',
  readyFrom: null,
  priceCents: 500,
  unit: 'a punnet',
  note: '',
  stock: null,
  ...over,
})

describe('a price as the owner types it', () => {
  it('reads whole and decimal prices, with a comma or the currency sign', () => {
    expect(readPrice('4')).toBe(400)
    expect(readPrice('4.5')).toBe(450)
    expect(readPrice('4,50')).toBe(450)
    expect(readPrice(' €12.05 ')).toBe(1205)
    expect(readPrice('')).toBeNull()
  })

  it('refuses what is not a price', () => {
    for (const typed of ['-4', '4.505', '4e3', '1/2', '0x10', 'four', '4.'] as const) {
      expect(readPrice(typed), typed).toBeUndefined()
    }
  })

  it('says it back with what it buys', () => {
    expect(priceWords(item({ priceCents: 400, unit: 'a dozen' }))).toBe('€4 a dozen')
    expect(priceWords(item({ priceCents: 450, unit: '' }))).toBe('€4.50')
    expect(priceWords(item({ priceCents: null }))).toBe('')
  })
})

describe('one product’s week, as sent', () => {
  const fields = {
    availability: 'coming-soon',
    price: '5',
    unit: 'a punnet',
    note: 'Pick your own',
    readyFrom: '2027-06-07',
  }

  it('keeps the week it is ready only while it is coming soon', () => {
    expect(readWeekEdit(fields)).toEqual({
      ok: true,
      edit: {
        availability: 'coming-soon',
        priceCents: 500,
        unit: 'a punnet',
        note: 'Pick your own',
        readyFrom: '2027-06-07',
        stock: null,
      },
    })
    expect(readWeekEdit({ ...fields, stock: '12' })).toMatchObject({ ok: true, edit: { stock: 12 } })
    expect(readWeekEdit({ ...fields, stock: ' 2,5 ' })).toMatchObject({ ok: true, edit: { stock: 2.5 } })
    expect(readWeekEdit({ ...fields, stock: '0' })).toMatchObject({ ok: true, edit: { stock: 0 } })
    const available = readWeekEdit({ ...fields, availability: 'available' })
    expect(available.ok && available.edit.readyFrom).toBeNull()
  })

  it('refuses, in the owner’s words, what the list cannot show', () => {
    expect(readWeekEdit({ ...fields, availability: 'in-stock' })).toEqual({
      ok: false,
      error: 'Choose how it is for sale this week.',
    })
    expect(readWeekEdit({ ...fields, price: 'cheap' })).toMatchObject({ ok: false })
    expect(readWeekEdit({ ...fields, price: '10001' })).toMatchObject({ ok: false })
    expect(readWeekEdit({ ...fields, unit: 'x'.repeat(31) })).toMatchObject({ ok: false })
    expect(readWeekEdit({ ...fields, note: 'x'.repeat(141) })).toMatchObject({ ok: false })
    expect(readWeekEdit({ ...fields, note: 'two\nlines' })).toMatchObject({ ok: false })
    expect(readWeekEdit({ ...fields, readyFrom: '2027-02-30' })).toMatchObject({ ok: false })
    for (const stock of ['-1', 'NaN', 'Infinity', '1e3', '2000000', '1.2345', '0x10']) {
      expect(readWeekEdit({ ...fields, stock })).toEqual({
        ok: false,
        error: 'What is left is a number such as 12 or 2.5, or empty when you do not count it.',
      })
    }
  })
})

describe('the news drafted from the list', () => {
  it('says the product is ready, its price and the note', () => {
    expect(draftNews(item({ note: 'From Saturday' }), 'Bramble Hill Farm')).toEqual({
      subject: 'Strawberries are ready at Bramble Hill Farm',
      text: 'Strawberries are ready: €5 a punnet.\n\nFrom Saturday\n\nYou asked us to tell you. See you at the farm,\n\nBramble Hill Farm',
    })
    expect(draftNews(item({ product: 'honey', priceCents: null }), 'Bramble Hill Farm').text).toMatch(
      /^Honey is ready\./,
    )
  })
})

describe('the offers for the page’s JSON-LD (makesOffer)', () => {
  it('lists only what is for sale now with a price, as schema.org Offers', () => {
    const offers = weekOffers(
      [
        item({ note: 'Pick your own' }),
        item({ product: 'eggs', availability: 'few-left', priceCents: 400, unit: 'a dozen' }),
        item({ product: 'honey', availability: 'sold-out' }),
        item({ product: 'apples', availability: 'coming-soon' }),
        item({ product: 'milk', priceCents: null }),
      ],
      'https://bramble.example',
    )
    expect(offers).toEqual([
      {
        '@type': 'Offer',
        itemOffered: { '@type': 'Product', name: 'Strawberries' },
        price: '5.00',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          price: '5.00',
          priceCurrency: 'EUR',
          unitText: 'a punnet',
        },
        description: 'Pick your own',
        url: 'https://bramble.example/#this-week',
      },
      {
        '@type': 'Offer',
        itemOffered: { '@type': 'Product', name: 'Eggs' },
        price: '4.00',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/LimitedAvailability',
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          price: '4.00',
          priceCurrency: 'EUR',
          unitText: 'a dozen',
        },
        url: 'https://bramble.example/#this-week',
      },
    ])
  })
})
