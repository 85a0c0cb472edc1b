import { useState } from 'react'
import { Form } from '@remix-run/react'
import { FarmPhoto } from './farm-photo'
import { photoLimits, photoWords, type ShownPhoto } from './photo-words'

/** A refusal and the form it belongs to: a photo's id, or the new photo's form. */
export interface PhotoProblem {
  form: number | 'new'
  error: string
  alt: string
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'
const buttonStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'
const labelStyle = 'mb-1.5 block text-sm font-semibold text-stone-800'

function Problem({ id, words }: { id: string; words: string | null }) {
  if (!words) return null
  return (
    <p id={id} role="alert" className="mt-2 text-sm font-medium text-red-800">
      {words}
    </p>
  )
}

/** The new photo's form: its file and its alt text. With JavaScript, a file over 15 MB is refused before it is sent. */
export function AddPhotoForm({ problem, busy }: { problem: PhotoProblem | null; busy: boolean }) {
  const [tooLarge, setTooLarge] = useState(false)
  const words = tooLarge ? photoWords.tooLarge : (problem?.error ?? null)
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="mt-10 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
      onSubmit={(event) => {
        const file = (event.currentTarget.elements.namedItem('photo') as HTMLInputElement).files?.[0]
        const over = file !== undefined && file.size > photoLimits.bytes
        setTooLarge(over)
        if (over) event.preventDefault()
      }}
    >
      <h2 className="font-serif text-2xl font-bold text-green-900">Add a photo</h2>
      <input type="hidden" name="intent" value="add" />
      <label htmlFor="photo" className={`mt-4 ${labelStyle}`}>
        Photo
      </label>
      <input
        id="photo"
        name="photo"
        type="file"
        required
        accept="image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif"
        aria-describedby="photo-hint new-problem"
        aria-invalid={words ? true : undefined}
        onChange={() => setTooLarge(false)}
        className="block w-full text-base text-stone-800 file:mr-3 file:rounded-full file:border-0 file:bg-green-100 file:px-4 file:py-1.5 file:font-semibold file:text-green-900"
      />
      <p id="photo-hint" className="mt-1 text-sm text-stone-600">
        JPEG, PNG, WebP, HEIC or AVIF, up to 15 MB and 50 megapixels (a HEIC 24); still photos only.
      </p>
      <label htmlFor="alt-new" className={`mt-4 ${labelStyle}`}>
        What it shows, for whoever cannot see it
      </label>
      <input
        id="alt-new"
        name="alt"
        required
        maxLength={photoLimits.altLength}
        defaultValue={problem?.alt ?? ''}
        placeholder="Strawberry rows at dawn, the barn behind"
        aria-describedby="new-problem"
        className={fieldStyle}
      />
      <Problem id="new-problem" words={words ? `Not added: ${words}` : null} />
      <button type="submit" disabled={busy} className={`mt-4 ${buttonStyle}`}>
        {busy ? 'Preparing the photo…' : 'Add the photo'}
      </button>
    </Form>
  )
}

/** A photo on the page: its picture, its alt text to change, and moving or removing it. */
export function PhotoCard({
  photo,
  place,
  count,
  problem,
  busy,
}: {
  photo: ShownPhoto
  place: number
  count: number
  problem: PhotoProblem | null
  busy: boolean
}) {
  const field = `alt-${photo.id}`
  return (
    <Form
      method="post"
      key={photo.alt}
      data-testid="photo"
      className="grid gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200 grid-cols-[5.5rem_1fr] sm:grid-cols-[10rem_1fr]"
    >
      <input type="hidden" name="id" value={photo.id} />
      <FarmPhoto
        photo={photo}
        sizes="(min-width: 640px) 10rem, 5.5rem"
        lazy={place > 4}
        className="h-auto w-full rounded-xl"
      />
      <div className="min-w-0">
        <label htmlFor={field} className={labelStyle}>
          Photo {place} of {count}: what it shows
        </label>
        <input
          id={field}
          name="alt"
          maxLength={photoLimits.altLength}
          defaultValue={problem?.alt ?? photo.alt}
          aria-describedby={`problem-${photo.id}`}
          aria-invalid={problem ? true : undefined}
          className={fieldStyle}
        />
        <Problem id={`problem-${photo.id}`} words={problem ? `Not saved: ${problem.error}` : null} />
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="submit" name="intent" value="describe" disabled={busy} className={buttonStyle}>
            Save description
          </button>
          <button type="submit" name="intent" value="earlier" disabled={busy || place === 1} className={buttonStyle}>
            Move earlier
          </button>
          <button type="submit" name="intent" value="later" disabled={busy || place === count} className={buttonStyle}>
            Move later
          </button>
          <button type="submit" name="intent" value="remove" disabled={busy} className={buttonStyle}>
            Remove
          </button>
        </div>
      </div>
    </Form>
  )
}
