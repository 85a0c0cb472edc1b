import { useEffect, useState } from 'react'
import { weekdayName } from '#app/language/intl'
import { useMessages, usePageLanguage } from '#app/language/use-messages'
import { nextOpening, type HoursException, type NextOpening, type OpeningHours } from './opening-hours'
import { exceptionWordsIn, hoursWords, openingLineIn } from './opening-words'
import { mapHref, telHref, withProduct, type FindUs, type PageWords } from './page-words'
import { parseStory } from './story'

const cardIcons = [
  'M12 21c-4.97 0-9-3.582-9-8 0-3.5 2.5-6.5 6-7.6M12 21c4.97 0 9-3.582 9-8 0-3.5-2.5-6.5-6-7.6M12 21V9m0 0c0-3 1.5-5 4-6m-4 6c0-3-1.5-5-4-6',
  'M20 12v8a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1v-8m16 0H4m16 0V8H4v4m8-4v13m0-13c-1.5-3-5-3.5-5-1s3 1 5 1Zm0 0c1.5-3 5-3.5 5-1s-3 1-5 1Z',
]

/**
 * The top of the home page: the welcome line ending with the farm's name, the intro and the two
 * cards, in the words the loader said in the page's language (wordsIn).
 */
export function FarmWelcome({ words, farm }: { words: PageWords; farm: { name: string; product: string } }) {
  const messages = useMessages()
  // A card the owner emptied is left out, not shown as an empty box; each keeps its own icon.
  const cards = words.cards.map((card, index) => ({ card, index })).filter(({ card }) => card.title || card.text)
  return (
    <div>
      <p className="text-sm font-semibold uppercase tracking-widest text-amber-800">{messages.freshFromOurFields()}</p>
      <h1 className="mt-3 font-serif text-4xl font-bold leading-tight text-green-900 sm:text-5xl">
        {`${words.welcome} ${farm.name}`}
      </h1>
      {words.intro ? <p className="mt-5 max-w-xl text-lg leading-relaxed text-stone-700">{words.intro}</p> : null}
      {cards.length > 0 ? (
        <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
          {cards.map(({ card, index }) => (
            <li key={index} className="rounded-2xl bg-white/80 p-6 shadow-sm ring-1 ring-stone-200">
              <svg
                viewBox="0 0 24 24"
                aria-hidden="true"
                className="h-10 w-10 rounded-xl bg-green-100 p-2 text-green-800"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                <path d={cardIcons[index]} />
              </svg>
              {card.title ? (
                <h2 className="mt-4 font-serif text-xl font-bold text-green-900">
                  {withProduct(card.title, farm.product)}
                </h2>
              ) : null}
              {card.text ? (
                <p className="mt-2 leading-relaxed text-stone-700">{withProduct(card.text, farm.product)}</p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** What the page tells of the farm below the form: its story, its hours, where it is. Nothing the owner left empty. */
export function FarmDetails({
  words,
  zone,
  opening,
  exceptions,
}: {
  words: PageWords
  zone: string
  /** The farm's next opening as the server read its clock; the browser reads its own after. */
  opening: NextOpening | null
  exceptions: HoursException[]
}) {
  const messages = useMessages()
  const story = parseStory(words.story)
  const hasHours = words.hours.week.some(Boolean) || exceptions.length > 0
  const { address, directions, phone } = words.findUs
  if (story.length === 0 && !hasHours && !address && !directions && !phone) return null
  return (
    <section aria-label={messages.aboutTheFarm()} className="mt-16 grid gap-10 lg:grid-cols-3">
      {story.length > 0 ? (
        <div className="lg:col-span-2">
          <h2 className="font-serif text-3xl font-bold text-green-900">{messages.ourStory()}</h2>
          <div className="mt-4 space-y-4 text-lg leading-relaxed text-stone-700" data-testid="farm-story">
            {story.map((paragraph, index) => (
              <p key={index}>
                {paragraph.map((piece, at) =>
                  piece.kind === 'link' ? (
                    <a
                      key={at}
                      href={piece.href}
                      rel="noopener nofollow"
                      className="font-semibold text-green-800 underline"
                    >
                      {piece.text}
                    </a>
                  ) : (
                    piece.text
                  ),
                )}
              </p>
            ))}
          </div>
        </div>
      ) : null}
      <div className="space-y-10">
        {hasHours ? <Hours hours={words.hours} zone={zone} opening={opening} exceptions={exceptions} /> : null}
        {address || directions || phone ? <FindTheFarm findUs={words.findUs} /> : null}
      </div>
    </section>
  )
}

/** The farm's next opening, read again each minute on the browser's clock: a page kept open stays right. */
function useNextOpening(hours: OpeningHours, zone: string, opening: NextOpening | null) {
  const [now, setNow] = useState(opening)
  useEffect(() => {
    const read = () => setNow(nextOpening(hours, Date.now(), zone))
    read()
    const timer = setInterval(read, 30_000)
    return () => clearInterval(timer)
  }, [hours, zone])
  return now
}

function Hours({
  hours,
  zone,
  opening: asServed,
  exceptions,
}: {
  hours: OpeningHours
  zone: string
  opening: NextOpening | null
  exceptions: HoursException[]
}) {
  const messages = useMessages()
  const language = usePageLanguage()
  const opening = openingLineIn(messages, language, useNextOpening(hours, zone, asServed))
  return (
    <div>
      <h2 className="font-serif text-2xl font-bold text-green-900">{messages.openingHours()}</h2>
      {opening ? (
        <p className="mt-2 text-lg font-semibold text-green-800" data-testid="opening-line">
          {opening}
        </p>
      ) : null}
      <table className="mt-3 w-full text-stone-700">
        <tbody>
          {hours.week.map((span, day) => (
            <tr key={day} className="border-b border-stone-100">
              <th scope="row" className="py-1 pr-4 text-left font-medium">
                {weekdayName(language, day)}
              </th>
              <td className="py-1">{span ? hoursWords(language, span) : messages.closed()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {exceptions.length > 0 ? (
        <ul className="mt-3 space-y-1 text-stone-700" aria-label={messages.daysThatDiffer()}>
          {exceptions.map((exception) => (
            <li key={`${exception.from}${exception.to}`}>{exceptionWordsIn(messages, language, exception)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

function FindTheFarm({ findUs }: { findUs: FindUs }) {
  const messages = useMessages()
  return (
    <div>
      <h2 className="font-serif text-2xl font-bold text-green-900">{messages.whereToFindUs()}</h2>
      {findUs.address ? (
        <>
          <address className="mt-2 whitespace-pre-line not-italic text-stone-700">{findUs.address}</address>
          <a
            href={mapHref(findUs.address)}
            rel="noopener nofollow"
            className="mt-1 inline-block font-semibold text-green-800 underline"
          >
            {messages.openInMap()}
          </a>
        </>
      ) : null}
      {findUs.directions ? <p className="mt-3 whitespace-pre-line text-stone-700">{findUs.directions}</p> : null}
      {findUs.phone ? (
        <p className="mt-3 text-stone-700">
          {messages.phone()}{' '}
          <a href={telHref(findUs.phone)} className="font-semibold text-green-800 underline">
            {findUs.phone}
          </a>
        </p>
      ) : null}
    </div>
  )
}
