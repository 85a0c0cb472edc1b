import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, expect, it } from 'vitest'
import { loadMessages } from '#app/language/use-messages'
import { FarmWelcome } from './farm-home'
import { defaultWords } from './page-words.server'

// As a page's loader does: the page's language's messages are loaded before it renders.
beforeAll(() => loadMessages('en'))

const farm = { name: 'Willow Creek Farm', product: 'Eggs' }

it('shows the spec’s intro and both cards on a fresh site', () => {
  const html = renderToStaticMarkup(<FarmWelcome words={defaultWords} farm={farm} />)
  expect(html).toContain('Fill out the form to stay updated with our latest products and receive exclusive offers.')
  expect(html.match(/<li /g)).toHaveLength(2)
  expect(html).toContain('Eggs Updates')
})

it('leaves out an intro and a card the owner emptied, not an empty box', () => {
  const words = { ...defaultWords, intro: '', cards: [{ title: '', text: '' }, defaultWords.cards[1]!] }
  const html = renderToStaticMarkup(<FarmWelcome words={words} farm={farm} />)
  expect(html).not.toContain('<p class="mt-5')
  expect(html.match(/<li /g)).toHaveLength(1)
  expect(html).toContain('Exclusive Offers')
  const none = renderToStaticMarkup(
    <FarmWelcome
      words={{
        ...words,
        cards: [
          { title: '', text: '' },
          { title: '', text: '' },
        ],
      }}
      farm={farm}
    />,
  )
  expect(none).not.toContain('<ul')
})
