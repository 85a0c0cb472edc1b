import { useMessages } from '#app/language/use-messages'
import { FarmPhoto } from './farm-photo'
import type { ShownPhoto } from './photo-words'

// Three across a 72rem page, two below 1024 px, a phone's too: six photos are not six screens to scroll.
const sizes = '(min-width: 1152px) 368px, (min-width: 1024px) 32vw, calc(50vw - 1.5rem)'

/** The home page's photos, in the owner's order; nothing at all while there are none. */
export function PhotoSection({
  photos,
  aboveTheFold = 0,
}: {
  photos: ShownPhoto[]
  /** How many of the first photos show on the first screen, loaded at once; the rest wait until scrolled near. */
  aboveTheFold?: number
}) {
  const messages = useMessages()
  if (photos.length === 0) return null
  return (
    <section aria-labelledby="farm-photos" className="mt-20">
      <h2 id="farm-photos" className="font-serif text-3xl font-bold text-green-900">
        {messages.photosHeading()}
      </h2>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {photos.map((photo, n) => (
          <li key={photo.id}>
            <FarmPhoto
              photo={photo}
              sizes={sizes}
              lazy={n >= aboveTheFold}
              className="aspect-[4/3] h-auto w-full rounded-xl object-cover shadow-sm sm:rounded-2xl ring-1 ring-stone-200"
            />
          </li>
        ))}
      </ul>
    </section>
  )
}
