import { describe, expect, it } from 'vitest'
import { defaultFarmProducts, readProductList } from './products'

describe('readProductList', () => {
  it('has the default products with their common synonyms', () => {
    const products = readProductList(defaultFarmProducts)
    expect(products.map((product) => product.name)).toEqual(
      expect.arrayContaining(['eggs', 'honey', 'apples', 'pears', 'strawberries', 'tomatoes', 'potatoes', 'pumpkins']),
    )
    expect(products.map((product) => product.name)).toEqual(
      expect.arrayContaining(['vegetables', 'milk', 'cheese', 'beef', 'chicken', 'lamb', 'pork', 'flowers']),
    )
    expect(products.find((product) => product.name === 'potatoes')?.synonyms).toContain('spuds')
  })

  it('reads the owner’s list, own synonyms after "=" and "|", and drops blanks and repeats', () => {
    expect(readProductList(' Asparagus = sparrowgrass | spears ,, eggs, asparagus=tips ')).toEqual([
      { name: 'Asparagus', synonyms: ['sparrowgrass', 'spears', 'tips'] },
      { name: 'eggs', synonyms: expect.arrayContaining(['duck eggs', 'huevos']) },
    ])
  })

  it.each([
    [' , ', /empty/],
    ['x'.repeat(61), /at most 60 characters/],
    [Array.from({ length: 101 }, (_, index) => `product ${index}`).join(','), /at most 100 products/],
  ])('refuses %j', (text, error) => {
    expect(() => readProductList(text)).toThrow(error)
  })
})
