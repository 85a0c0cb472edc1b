import { describe, expect, it } from 'vitest'
import { createOfflineReader } from './offline.server'
import { defaultFarmProducts, readProductList } from './products'

const wednesday = new Date(Date.UTC(2026, 5, 10, 9))
const readOffline = createOfflineReader(readProductList(defaultFarmProducts))
const read = (message: string, name = 'Ann Lee') => readOffline({ name, email: 'ann@example.com', message }, wednesday)

describe('the offline reader', () => {
  it.each([
    ['Two punnets of strawberries please', ['strawberries']],
    ['Any strawbery left? And a potatoe or two', ['strawberries', 'potatoes']],
    ['A bag of spuds and some carrots', ['potatoes', 'vegetables']],
    ['Des œufs et du miel, et des pommes de terre', ['eggs', 'honey', 'potatoes']],
    ['Bacon, sausages and a leg of lamb', ['pork', 'lamb']],
    ['Just saying hello', []],
  ])('finds the products in "%s"', (message, products) => {
    expect(read(message).products).toEqual(products)
  })

  it('finds the owner’s own products and synonyms', () => {
    const readAsparagusFarm = createOfflineReader(readProductList('asparagus=sparrowgrass|spears, eggs'))
    const form = { name: 'Ann', email: 'ann@example.com', message: 'Any sparrowgrass or duck eggs this week?' }
    expect(readAsparagusFarm(form, wednesday).products).toEqual(['asparagus', 'eggs'])
  })

  it.each([
    ['Can I collect them tomorrow?', 'high', ['tomorrow']],
    ['We need them ASAP please', 'high', ['ASAP']],
    ['Could I pick up on Friday?', 'high', ['Friday']],
    ['For a party on 12 June', 'high', ['12 June']],
    ['For a party on 30 June', 'normal', []],
    ['Could I pick up next Friday?', 'normal', []],
    ['The eggs I bought on Saturday were cracked', 'normal', []],
    ['Are you open on Saturdays?', 'normal', []],
  ])('reads "%s" as %s urgency', (message, level, cues) => {
    expect(read(message).urgency).toEqual({ level, cues })
  })

  it.each([
    ['Buy cheap followers at http://example.biz and www.example.biz', true, ['links', 'spam_phrasing']],
    ['WIN A FREE IPHONE NOW, CLICK HERE TO CLAIM YOUR PRIZE', true, ['shouting', 'spam_phrasing']],
    ['qwrtzp sdfghk xzcvbn', true, ['gibberish']],
    ['THE EGGS WERE ALL CRACKED AGAIN', false, ['shouting']],
    ['Do you have eggs? Email me at ann@example.com', false, []],
  ])('reads "%s" as spam: %s', (message, isSpam, reasons) => {
    expect(read(message).spam).toEqual({ isSpam, reasons })
  })

  it.each([
    'Photo of the bruised pear here: https://imgur.com/gallery/b7Xq2 can you swap it?',
    'Sorry, the right link: https://www.dropbox.com/s/pear-photo.jpg',
  ])('counts one link once in "%s"', (message) => {
    expect(read(message).spam).toEqual({ isSpam: false, reasons: ['links'] })
  })

  it('files spam under other and never calls it urgent', () => {
    const spam = read('URGENT!!! CLICK HERE TODAY TO CLAIM YOUR GIFT CARD www.example.biz')
    expect(spam.intents).toEqual(['other'])
    expect(spam.urgency).toEqual({ level: 'normal', cues: [] })
  })

  it('does not take a sign-off for praise, nor "no problem" for a complaint', () => {
    expect(read('Could I order a dozen eggs? Thanks, Ann').intents).toEqual(['order'])
    expect(read('No problem if you have no eggs, any honey?').intents).not.toContain('complaint')
  })

  it('scores sentiment from -1 to 1', () => {
    expect(read('The honey is absolutely delicious, thank you!').sentiment).toMatchObject({ label: 'positive' })
    expect(read('The milk was sour and I want a refund.').sentiment).toMatchObject({ label: 'negative' })
    expect(read('How much are your eggs?').sentiment).toEqual({ label: 'neutral', score: 0 })
  })
})
