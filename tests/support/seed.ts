import Sqlite from 'better-sqlite3'
import type { Analysis, Intent } from '#app/analysis/analysis'

const people = ['Ann Lee', 'Bob Marsh', 'Cara Diaz', 'Dev Patel', 'Ema Kovac', 'Finn Odell', 'Gus Hale', 'Hana Sato']
const domains = ['example.com', 'corner-shop.co.uk', 'mail.example.org', 'cafe.example']
const messages: Array<{ text: string; intents: Intent[]; products: string[]; urgent: boolean }> = [
  { text: 'Do you have any honey left this week?', intents: ['product_inquiry'], products: ['honey'], urgent: false },
  {
    text: 'We would like 40 dozen eggs every week for the café, starting tomorrow.',
    intents: ['wholesale', 'order'],
    products: ['eggs'],
    urgent: true,
  },
  {
    text: 'How much are the strawberries per punnet?',
    intents: ['pricing'],
    products: ['strawberries'],
    urgent: false,
  },
  { text: 'Can we visit the farm with the children on Saturday?', intents: ['visit'], products: [], urgent: false },
  { text: 'The apples I bought were bruised, not happy.', intents: ['complaint'], products: ['apples'], urgent: false },
  { text: 'Lovely pumpkins, thank you!', intents: ['feedback'], products: ['pumpkins'], urgent: false },
]

function analysisOf(message: (typeof messages)[number]): Analysis {
  return {
    intents: message.intents,
    products: message.products,
    sentiment: { label: 'neutral', score: 0 },
    urgency: { level: message.urgent ? 'high' : 'normal', cues: message.urgent ? ['tomorrow'] : [] },
    spam: { isSpam: false, reasons: [] },
    source: 'offline',
  }
}

/**
 * Writes `count` varied submissions straight into a migrated database file, in one
 * transaction: the triggers index each for search and filters as the app's inserts would.
 */
export function seedSubmissions(databasePath: string, count: number, startAt = Date.now() - count * 60_000) {
  const sqlite = new Sqlite(databasePath)
  const insert = sqlite.prepare(
    'INSERT INTO submissions (name, email, message, ai_response, analysis, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const person = people[i % people.length]!
      const message = messages[i % messages.length]!
      const email = `${person.split(' ')[0]!.toLowerCase()}${i}@${domains[i % domains.length]}`
      insert.run(
        `${person} ${i}`,
        email,
        message.text,
        'Read offline.',
        JSON.stringify(analysisOf(message)),
        startAt + i * 60_000,
      )
    }
  })()
  sqlite.close()
}

export const seededMessages = messages

const firstPageLeads = [
  'Any honey left for Saturday? Two jars please.',
  'We would like 40 dozen eggs every week for the café, starting tomorrow.',
  'How much are the strawberries per punnet? I may want a tray for a party.',
  'Can we visit the farm with the children on Saturday morning?',
  'The apples I bought last week were bruised, not happy at all.',
  'Lovely pumpkins, thank you! Will you have more next month?',
]

/**
 * The inbox as the owner meets it on a busy day, as npm run bench measures it: 25 leads sent
 * through the API, a full first page, back once every one has its analysis.
 */
export async function sendFullFirstPage(siteUrl: string) {
  for (let n = 0; n < 25; n++) {
    const sent = await fetch(`${siteUrl}/api/submissions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `Customer ${n + 1}`,
        email: `customer${n + 1}@example.com`,
        message: firstPageLeads[n % firstPageLeads.length],
      }),
    })
    if (sent.status !== 201) throw new Error(`lead ${n + 1} was answered ${sent.status}`)
  }
  for (let tries = 0; ; tries++) {
    const listed = await fetch(`${siteUrl}/api/submissions?limit=25`)
    if (!listed.ok) throw new Error(`the inbox was answered ${listed.status}`)
    const leads = (await listed.json()) as Array<{ awaitingAnalysis: boolean; aiResponse: string | null }>
    if (leads.filter((lead) => !lead.awaitingAnalysis && lead.aiResponse).length === 25) return
    if (tries === 200) throw new Error('the 25 leads were not analysed within 20 s')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A message the analysis reads as spam (links, SEO phrasing): kept aside, never counted. */
export const seoSpam = {
  name: 'SEO Expert',
  email: 'rank@seo.example',
  message:
    'Dear sir, we offer SEO and backlinks to get your website on the first page of Google. Click here: http://a.example http://b.example',
}
