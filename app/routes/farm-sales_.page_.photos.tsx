import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { AddPhotoForm, PhotoCard, type PhotoProblem } from '#app/photos/photo-forms'
import { changePhotos } from '#app/photos/photo-requests.server'
import { doneWords, photoLimits } from '#app/photos/photo-words'

export const meta: MetaFunction = () => [{ title: 'The farm’s photos' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cannot } = await requirePermission(request, context, 'photos:change', {
    as: 'page',
    to: 'change the farm’s photos',
    showCannot: true,
  })
  return json({ cannot, photos: cannot ? [] : context.photos.shown() }, { headers: ownerDataHeaders })
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const door = await requirePermission(request, context, 'photos:change', {
    as: 'page',
    to: 'change the farm’s photos',
  })
  const by = { memberId: door.who.id, address: context.clientAddress }
  const changed = await changePhotos(request, context.photos, by)
  if (!changed.ok) return json({ problem: changed.problem }, { status: changed.status })
  return redirect(`/farm-sales/page/photos?done=${changed.done}`, 303)
}

export default function FarmPhotos() {
  const { cannot, photos } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const problem: PhotoProblem | null = answer?.problem ?? null
  const busy = useNavigation().state === 'submitting'
  const done = doneWords[useSearchParams()[0].get('done') ?? '']
  return (
    <OwnerPage title="The farm’s photos">
      {cannot ? (
        <CannotNote>{cannot}</CannotNote>
      ) : (
        <>
          <p className="mt-3 text-stone-700">
            Up to {photoLimits.count} photos for the home page, shown in this order. Each is made smaller for phones and
            saved without what the camera wrote in it (where it was taken, the camera’s name): the file you send is
            never shown or kept.
          </p>
          {done && !problem ? (
            <p role="status" className="mt-4 rounded-xl bg-green-50 px-4 py-3 text-green-950 ring-1 ring-green-200">
              {done}
            </p>
          ) : null}
          <p className="mt-6 text-sm font-semibold text-stone-700">
            {photos.length} of {photoLimits.count} photos
          </p>
          <ol className="mt-3 space-y-4">
            {photos.map((photo, n) => (
              <li key={photo.id}>
                <PhotoCard
                  photo={photo}
                  place={n + 1}
                  count={photos.length}
                  problem={problem?.form === photo.id ? problem : null}
                  busy={busy}
                />
              </li>
            ))}
          </ol>
          {photos.length < photoLimits.count ? (
            <AddPhotoForm problem={problem?.form === 'new' ? problem : null} busy={busy} />
          ) : problem?.form === 'new' ? (
            <p role="alert" className="mt-6 text-sm font-medium text-red-800">
              Not added: {problem.error}
            </p>
          ) : null}
        </>
      )}
    </OwnerPage>
  )
}
