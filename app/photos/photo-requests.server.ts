import type { Refusal } from '#app/http/refusal.server'
import type { PhotoProblem } from './photo-forms'
import type { By, Photos } from './photos.server'
import { photoWords, type doneWords } from './photo-words'

type Changed =
  { ok: true; done: keyof typeof doneWords } | { ok: false; status: Refusal['status']; problem: PhotoProblem }

const text = (form: FormData, name: string) => {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

/**
 * One change of the photos page's forms: add (a file and its alt text), describe, move
 * earlier or later, remove. Refused in words, with what the owner wrote kept for the form.
 */
export async function changePhotos(request: Request, photos: Photos, by: By): Promise<Changed> {
  const form = await request.formData().catch(() => null)
  const intent = form ? text(form, 'intent') : ''
  const id = form ? Number(text(form, 'id')) : NaN
  const alt = form ? text(form, 'alt') : ''
  const which = intent === 'add' || !Number.isSafeInteger(id) ? 'new' : id
  const refused = (refusal: Refusal): Changed => ({
    ok: false,
    status: refusal.status,
    problem: { form: which, error: refusal.error, alt },
  })
  if (!form) return refused({ ok: false, status: 400, error: photoWords.none })
  if (intent === 'add') {
    const file = form.get('photo')
    if (!(file instanceof Blob) || file.size === 0) return refused({ ok: false, status: 400, error: photoWords.none })
    const added = await photos.add(new Uint8Array(await file.arrayBuffer()), alt, by)
    return added.ok ? { ok: true, done: 'added' } : refused(added)
  }
  if (which === 'new') return refused({ ok: false, status: 400, error: 'That change is not one this page knows.' })
  const changed =
    intent === 'describe'
      ? await photos.describe(which, alt, by)
      : intent === 'earlier' || intent === 'later'
        ? await photos.move(which, intent, by)
        : intent === 'remove'
          ? await photos.remove(which, by)
          : { ok: false as const, status: 400 as const, error: 'That change is not one this page knows.' }
  if (!changed.ok) return refused(changed)
  return { ok: true, done: intent === 'describe' ? 'described' : intent === 'remove' ? 'removed' : 'moved' }
}
