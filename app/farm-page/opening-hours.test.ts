import { describe, expect, it } from 'vitest'
import english from '#app/language/compiled/en'
import { nextOpening, type HoursException, type OpeningHours } from './opening-hours'
import { exceptionWordsIn, openingLineIn } from './opening-words'

// The English page's words, as the spec's page has always said them.
const openingLine = (hours: OpeningHours, now: number, zone: string) =>
  openingLineIn(english, 'en', nextOpening(hours, now, zone))
const exceptionWords = (exception: HoursException) => exceptionWordsIn(english, 'en', exception)

const london = 'Europe/London'
const dayHours = { opens: '09:00', closes: '17:00' }
/** Open every day 9:00–17:00, Saturdays till 18:00. */
const everyDay: OpeningHours = {
  week: [dayHours, dayHours, dayHours, dayHours, dayHours, { opens: '09:00', closes: '18:00' }, dayHours],
  exceptions: [],
}
const at = (iso: string) => Date.parse(iso)

describe('the opening line across the spring change of the clocks (London, Sunday 28 March 2027)', () => {
  it('is open at 9:30 summer time, which is 8:30 UTC', () => {
    expect(openingLine(everyDay, at('2027-03-28T08:30:00Z'), london)).toBe('Open now until 17:00')
  })
  it('opens at 9:00 summer time: at 8:59 it is still to come, at 9:00 it is open', () => {
    expect(openingLine(everyDay, at('2027-03-28T07:59:00Z'), london)).toBe('Opens today at 9:00')
    expect(openingLine(everyDay, at('2027-03-28T08:00:00Z'), london)).toBe('Open now until 17:00')
  })
  it('says tomorrow from Saturday evening, before the clocks go forward', () => {
    expect(openingLine(everyDay, at('2027-03-27T20:00:00Z'), london)).toBe('Opens tomorrow at 9:00')
  })
  it('closes at 17:00 summer time, 16:00 UTC', () => {
    expect(openingLine(everyDay, at('2027-03-28T15:59:00Z'), london)).toBe('Open now until 17:00')
    expect(openingLine(everyDay, at('2027-03-28T16:00:00Z'), london)).toBe('Opens tomorrow at 9:00')
  })
})

describe('the opening line across the autumn change (London, Sunday 31 October 2027)', () => {
  it('is not open yet at 8:30 winter time, which summer time would read as 9:30', () => {
    expect(openingLine(everyDay, at('2027-10-31T08:30:00Z'), london)).toBe('Opens today at 9:00')
    expect(openingLine(everyDay, at('2027-10-31T09:00:00Z'), london)).toBe('Open now until 17:00')
  })
  it('reads 1:30 twice that night and says the same both times', () => {
    expect(openingLine(everyDay, at('2027-10-31T00:30:00Z'), london)).toBe('Opens today at 9:00')
    expect(openingLine(everyDay, at('2027-10-31T01:30:00Z'), london)).toBe('Opens today at 9:00')
  })
})

describe('the opening line in the southern hemisphere (Auckland goes forward on 26 September 2027)', () => {
  it('reads the farm’s clock, not the server’s', () => {
    // Saturday 25 September, 21:00 UTC: Sunday 26 September, 10:00 in Auckland (NZDT, +13).
    expect(openingLine(everyDay, at('2027-09-25T21:00:00Z'), 'Pacific/Auckland')).toBe('Open now until 17:00')
    // The same moment in London is Saturday 22:00.
    expect(openingLine(everyDay, at('2027-09-25T21:00:00Z'), london)).toBe('Opens tomorrow at 9:00')
  })
})

describe('the week and its exceptions', () => {
  const weekends: OpeningHours = {
    week: [null, null, null, null, null, { opens: '09:00', closes: '13:00' }, null],
    exceptions: [],
  }
  it('names the weekday within the week', () => {
    // Monday 7 June 2027, noon.
    expect(openingLine(weekends, at('2027-06-07T11:00:00Z'), london)).toBe('Opens Saturday at 9:00')
  })
  it('an open exception day comes first', () => {
    const strawberryDay: OpeningHours = {
      ...weekends,
      exceptions: [
        { from: '2027-06-13', to: '2027-06-13', hours: { opens: '14:00', closes: '18:00' }, note: 'strawberry day' },
      ],
    }
    expect(openingLine(strawberryDay, at('2027-06-12T13:00:00Z'), london)).toBe('Opens tomorrow at 14:00')
    expect(openingLine(strawberryDay, at('2027-06-13T14:00:00Z'), london)).toBe('Open now until 18:00')
  })
  it('a closed range is skipped, and past a week the date is named', () => {
    const christmas: OpeningHours = {
      ...everyDay,
      exceptions: [{ from: '2027-12-24', to: '2027-12-31', hours: null, note: '' }],
    }
    expect(openingLine(christmas, at('2027-12-23T18:00:00Z'), london)).toBe('Opens Saturday 1 January at 9:00')
    expect(openingLine(christmas, at('2027-12-28T10:00:00Z'), london)).toBe('Opens Saturday at 9:00')
  })
  it('says nothing when the farm opens on no day ahead', () => {
    expect(openingLine({ week: [null, null, null, null, null, null, null], exceptions: [] }, Date.now(), london)).toBe(
      null,
    )
  })
  it('words the exceptions as the visitor reads them', () => {
    expect(exceptionWords({ from: '2027-12-24', to: '2027-12-26', hours: null, note: '' })).toBe(
      'Closed 24–26 December',
    )
    expect(exceptionWords({ from: '2027-12-24', to: '2028-01-02', hours: null, note: 'winter' })).toBe(
      'Closed 24 December – 2 January: winter',
    )
    expect(
      exceptionWords({
        from: '2027-06-13',
        to: '2027-06-13',
        hours: { opens: '14:00', closes: '18:00' },
        note: 'strawberry day',
      }),
    ).toBe('Open Sunday 13 June, 14:00–18:00: strawberry day')
  })
})
