import { describe, expect, it } from 'vitest'
import { formValuesOf, readPageForm } from './page-form.server'
import { defaultWords } from './page-words.server'

const formOf = (values: Record<string, string>) => {
  const form = new FormData()
  for (const [name, value] of Object.entries(values)) form.set(name, value)
  return form
}

describe('reading the page editor’s form', () => {
  it('reads back what formValuesOf filled in, the same words', () => {
    const words = {
      ...defaultWords,
      story: 'We keep hens.\n\nSee [us](https://farm.example).',
      hours: {
        week: [null, null, null, null, { opens: '09:00', closes: '18:00' }, { opens: '09:00', closes: '13:00' }, null],
        exceptions: [
          { from: '2027-12-24', to: '2027-12-26', hours: null, note: '' },
          { from: '2027-06-13', to: '2027-06-13', hours: { opens: '14:00', closes: '18:00' }, note: 'strawberry day' },
        ],
      },
      findUs: {
        address: 'Bramble Farm\nLong Lane',
        directions: 'Second gate after the church.',
        phone: '+44 1234 567890',
      },
    }
    const read = readPageForm(formOf(formValuesOf(words)))!
    expect(read.problems).toEqual({})
    expect(read.words).toEqual(words)
  })

  it('says what is wrong, by field, and keeps what was typed', () => {
    const read = readPageForm(
      formOf({
        ...formValuesOf(defaultWords),
        welcome: 'W'.repeat(81),
        'opens-0': '18:00',
        'closes-0': '09:00',
        'opens-1': '9:00',
        'closes-1': '',
        'exception-from-0': '2027-12-26',
        'exception-to-0': '2027-12-24',
        phone: 'call us',
        story: '[Click](javascript:void%280%29)',
      }),
    )!
    expect(read.problems).toEqual({
      welcome: 'At most 80 characters here; this is 81.',
      'hours-0': 'Closing comes after opening, the same day.',
      'hours-1': 'Write both times as hours and minutes (9:00, 18:00), or neither for closed.',
      'exception-0': 'The last day comes after the first.',
      phone: 'Write the phone in digits, spaces and dashes, with + and the country’s code if you like.',
      story:
        'The link “Click” goes nowhere a visitor can safely follow: write an address starting with https://, or mailto: or tel:.',
    })
    expect(read.typed['opens-0']).toBe('18:00')
  })

  it('takes 9:00 typed without a time field as 09:00', () => {
    const read = readPageForm(formOf({ ...formValuesOf(defaultWords), 'opens-5': '9:00', 'closes-5': '13:00' }))!
    expect(read.words.hours.week[5]).toEqual({ opens: '09:00', closes: '13:00' })
  })

  it('refuses a file for a field, and more exceptions than the limit', () => {
    const withFile = formOf(formValuesOf(defaultWords))
    withFile.set('story', new Blob(['x']), 'story.txt')
    expect(readPageForm(withFile)).toBeNull()
    const tooMany = formValuesOf(defaultWords)
    for (let row = 0; row <= 30; row++) tooMany[`exception-from-${row}`] = '2027-01-01'
    expect(readPageForm(formOf(tooMany))!.problems['exception-30']).toBe('At most 30 days that differ from the week.')
  })
})
