import type { Analysis, Intent, SpamSignal } from './analysis'

const spamReasons: Record<SpamSignal, string> = {
  links: 'links',
  shouting: 'shouting',
  spam_phrasing: 'sales or scam phrasing',
  gibberish: 'gibberish',
}

/** What the visitor wants, said so that the products can follow. */
const wants: Record<Intent, (products: string) => string> = {
  order: (products) => (products ? `wants to order ${products}` : 'wants to place or change an order'),
  product_inquiry: (products) => (products ? `asks about ${products}` : 'asks about your produce'),
  pricing: (products) => (products ? `asks what ${products} cost` : 'asks about prices'),
  offers: (products) => (products ? `wants offers on ${products}` : 'wants news and offers'),
  visit: (products) => (products ? `plans a visit (${products})` : 'plans a visit to the farm'),
  wholesale: (products) => (products ? `asks about a trade supply of ${products}` : 'asks about buying wholesale'),
  complaint: (products) => (products ? `has a complaint about ${products}` : 'has a complaint'),
  feedback: (products) => (products ? `sends feedback on ${products}` : 'sends feedback'),
  other: (products) => (products ? `writes about ${products}` : 'writes about something else'),
}

/** The same wants, short enough to follow "also". */
const alsoWants: Record<Intent, string> = {
  order: 'wants to order',
  product_inquiry: 'asks what you have',
  pricing: 'asks about prices',
  offers: 'wants offers',
  visit: 'plans a visit',
  wholesale: 'buys for a business',
  complaint: 'has a complaint',
  feedback: 'leaves feedback',
  other: 'mentions something else',
}

const nextStep: Record<Intent, string> = {
  order: 'confirm what you can set aside and when they can collect',
  product_inquiry: 'tell them what you have and when',
  pricing: 'send your current prices',
  offers: 'add them to your offers list',
  visit: 'send opening times and directions',
  wholesale: 'send trade prices and delivery days',
  complaint: 'apologise and offer a replacement or refund',
  feedback: 'a short thank-you is enough',
  other: 'read it and reply if needed',
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/**
 * Two or three short sentences an owner reads in five seconds: who wants
 * what, how soon and in what mood, and what to do about it.
 */
export function summarise(analysis: Analysis, name: string): string {
  if (analysis.spam.isSpam) {
    const reasons = list(analysis.spam.reasons.map((reason) => spamReasons[reason]))
    return `Looks like spam${reasons ? ` (${reasons})` : ''}. No reply needed.`
  }
  const [first = 'other', ...rest] = analysis.intents
  const who = name.trim().replace(/\s+/g, ' ').slice(0, 40) || 'The visitor'
  const also = rest.length > 0 ? `, and also ${list(rest.map((intent) => alsoWants[intent]))}` : ''
  const what = `${who} ${wants[first](list(analysis.products))}${also}.`
  const mood =
    analysis.sentiment.label === 'negative'
      ? ' and sounds unhappy'
      : analysis.sentiment.label === 'positive'
        ? ' and sounds happy'
        : ''
  const cues = list(analysis.urgency.cues.map((cue) => `"${cue}"`))
  const when =
    analysis.urgency.level === 'normal'
      ? `Not urgent${mood}.`
      : cues
        ? `Urgent: they mention ${cues}${mood}.`
        : `Urgent${mood}.`
  const step =
    first === 'feedback' && analysis.sentiment.label === 'negative'
      ? 'thank them for telling you and say what you will change'
      : nextStep[first]
  const reply = analysis.urgency.level === 'high' ? `Reply today: ${step}.` : `Suggested reply: ${step}.`
  return `${what} ${when} ${reply}`
}
