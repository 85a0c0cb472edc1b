/** A product the farm sells, and the other words visitors use for it. */
export interface Product {
  name: string
  synonyms: string[]
}

/**
 * Words visitors use for the default products: singulars come from the
 * lemmatiser, so these are other names, kinds, common misspellings the fuzzy
 * match cannot reach, and the words of visitors' own languages.
 */
const commonSynonyms: Record<string, string[]> = {
  eggs: ['duck eggs', 'free-range eggs', 'oeufs', 'huevos', 'eier', 'uova', 'ovos', 'eieren'],
  honey: ['honeycomb', 'miel', 'honig', 'miele', 'honing', 'mel de abelha'],
  apples: [
    'bramley',
    'cox',
    'cooking apples',
    'cider apples',
    'pommes',
    'manzanas',
    'äpfel',
    'mele',
    'appels',
    'macas',
  ],
  pears: ['conference pears', 'poires', 'peras', 'birnen', 'peren'],
  strawberries: ['strawbs', 'fraises', 'fresas', 'erdbeeren', 'fragole', 'morangos', 'aardbeien'],
  tomatoes: ['cherry tomatoes', 'tomates', 'tomaten', 'pomodori', 'tomaten'],
  potatoes: [
    'spuds',
    'new potatoes',
    'jersey royals',
    'pommes de terre',
    'patatas',
    'kartoffeln',
    'patate',
    'aardappelen',
    'aardappels',
    'batatas',
  ],
  pumpkins: ['jack-o-lanterns', 'citrouilles', 'calabazas', 'kürbis', 'kürbisse', 'zucche', 'pompoenen', 'aboboras'],
  vegetables: [
    'veg',
    'veggies',
    'veg box',
    'carrots',
    'onions',
    'leeks',
    'courgettes',
    'zucchini',
    'cabbage',
    'kale',
    'lettuce',
    'salad',
    'spinach',
    'broccoli',
    'cauliflower',
    'beetroot',
    'sweetcorn',
    'beans',
    'peas',
    'squash',
    'parsnips',
    'légumes',
    'verduras',
    'gemüse',
    'verdure',
    'groenten',
  ],
  milk: ['raw milk', 'lait', 'leche', 'milch', 'latte', 'leite', 'melk'],
  cheese: ['cheddar', 'brie', 'halloumi', 'fromage', 'queso', 'käse', 'formaggio', 'queijo', 'kaas'],
  beef: [
    'steak',
    'mince',
    'brisket',
    'beef box',
    'boeuf',
    'bœuf',
    'ternera',
    'rindfleisch',
    'manzo',
    'rundvlees',
    'carne de vaca',
  ],
  chicken: ['poussin', 'poulet', 'pollo', 'hähnchen', 'huhn', 'frango', 'kip'],
  lamb: ['lamb chops', 'mutton', 'hogget', 'agneau', 'cordero', 'lammfleisch', 'agnello', 'lamsvlees', 'borrego'],
  pork: [
    'pig',
    'bacon',
    'sausages',
    'ham',
    'gammon',
    'pork chops',
    'porc',
    'cerdo',
    'schweinefleisch',
    'maiale',
    'varkensvlees',
    'porco',
  ],
  flowers: [
    'bouquet',
    'bunch of flowers',
    'sunflowers',
    'tulips',
    'roses',
    'dahlias',
    'sweet peas',
    'fleurs',
    'flores',
    'blumen',
    'fiori',
    'bloemen',
  ],
}

export const defaultFarmProducts = Object.keys(commonSynonyms).join(', ')

const maxProducts = 100
const maxNameLength = 60

/**
 * Reads the owner's list: products separated by commas (or lines), each optionally with
 * its own synonyms after "=" separated by "|", e.g. "eggs, asparagus=sparrowgrass|spears".
 * Default products keep their common synonyms.
 */
export function readProductList(text: string): Product[] {
  const products = new Map<string, Product>()
  // A line break parts products as a comma does: the settings page writes the list in a box.
  for (const entry of text.split(/[,\n]/)) {
    const [rawName = '', rawSynonyms = ''] = entry.split('=', 2)
    const name = rawName.trim().replace(/\s+/g, ' ')
    if (!name) continue
    if (name.length > maxNameLength) {
      throw new Error(`A product name may be at most ${maxNameLength} characters: "${name.slice(0, 20)}…"`)
    }
    const key = name.toLowerCase()
    const own = rawSynonyms
      .split('|')
      .map((synonym) => synonym.trim())
      .filter(Boolean)
    const earlier = products.get(key)
    const known = earlier?.synonyms ?? commonSynonyms[key] ?? []
    products.set(key, { name: earlier?.name ?? name, synonyms: [...new Set([...known, ...own])] })
  }
  if (products.size === 0) throw new Error('The product list is empty')
  if (products.size > maxProducts) throw new Error(`The product list may hold at most ${maxProducts} products`)
  return [...products.values()]
}
