import type { Intent } from './analysis'

/**
 * An intent in words, the one place they are written: `tag` on a card and in the owner's
 * mail ("Product inquiry"), `filter` for the inbox's filter of many ("Product questions").
 */
export const intentWords: Record<Intent, { tag: string; filter: string }> = {
  order: { tag: 'Order', filter: 'Orders' },
  product_inquiry: { tag: 'Product inquiry', filter: 'Product questions' },
  pricing: { tag: 'Pricing', filter: 'Prices' },
  offers: { tag: 'Offers', filter: 'Offers' },
  visit: { tag: 'Visit', filter: 'Visits' },
  wholesale: { tag: 'Wholesale', filter: 'Wholesale' },
  complaint: { tag: 'Complaint', filter: 'Complaints' },
  feedback: { tag: 'Feedback', filter: 'Feedback' },
  other: { tag: 'Other', filter: 'Other' },
}
