import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { formValuesOf, readPageForm } from '#app/farm-page/page-form.server'
import { PageEditor, doneWords, type Done } from '#app/farm-page/page-editor'
import { defaultWords } from '#app/farm-page/page-words.server'

export const meta: MetaFunction = () => [{ title: 'The farm’s page' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

const guard = { as: 'page', to: 'write the farm’s page' } as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  const { cannot } = await requirePermission(request, context, 'farm-page:edit', { ...guard, showCannot: true })
  const done = new URL(request.url).searchParams.get('done')
  const versions = cannot === null ? context.farmPage.versions() : { draft: null, published: null, previous: null }
  const editing = versions.draft?.words ?? versions.published?.words ?? defaultWords
  return json(
    {
      cannotEdit: cannot,
      values: formValuesOf(editing),
      draft: versions.draft && { changedAt: versions.draft.changedAt, changedBy: versions.draft.changedBy },
      published: versions.published && {
        changedAt: versions.published.changedAt,
        changedBy: versions.published.changedBy,
      },
      previous: versions.previous && { changedAt: versions.previous.changedAt },
      done: done !== null && done in doneWords ? (done as Done) : null,
    },
    { headers: ownerDataHeaders },
  )
}

const back = (done: Done, to = '/farm-sales/page') => redirect(`${to}?done=${done}`, 303)

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const pass = await requirePermission(request, context, 'farm-page:edit', guard)
  const changer = { by: pass.who.id, address: context.clientAddress }
  const form = await request.formData().catch(() => new FormData())
  const intent = form.get('intent')
  if (intent === 'restore' || intent === 'discard') {
    const answer =
      intent === 'restore'
        ? await context.farmPage.restorePrevious(changer)
        : await context.farmPage.discardDraft(changer)
    if (!answer.ok) return json({ problems: { form: answer.error }, typed: null }, { status: answer.status })
    return back(intent === 'restore' ? 'restored' : 'discarded')
  }
  if (intent === 'publish-draft') {
    const draft = context.farmPage.versions().draft
    if (!draft) return json({ problems: { form: 'There is no draft to publish.' }, typed: null }, { status: 409 })
    await context.farmPage.publish(draft.words, changer)
    return back('published')
  }
  if (intent !== 'save' && intent !== 'preview' && intent !== 'publish') {
    return json({ problems: { form: 'That change is not one this page knows.' }, typed: null }, { status: 400 })
  }
  const read = readPageForm(form)
  if (!read) return json({ problems: { form: notText }, typed: null }, { status: 400 })
  if (Object.keys(read.problems).length > 0) {
    return json({ problems: read.problems, typed: read.typed }, { status: 400 })
  }
  if (intent === 'publish') {
    await context.farmPage.publish(read.words, changer)
    return back('published')
  }
  await context.farmPage.saveDraft(read.words, changer)
  return intent === 'preview' ? redirect('/farm-sales/page/preview', 303) : back('saved')
}

export default function FarmPageEditor() {
  const data = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  return (
    <OwnerPage title="The farm’s page">
      {data.cannotEdit ? (
        <CannotNote>{data.cannotEdit}</CannotNote>
      ) : (
        <PageEditor
          values={answer?.typed ?? data.values}
          problems={answer?.problems ?? {}}
          draft={data.draft}
          published={data.published}
          previous={data.previous}
          done={answer ? null : data.done}
          busy={busy}
        />
      )}
    </OwnerPage>
  )
}
