import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { savedReplyLimits } from '#app/replies/replies.server'
import { isSubmissionId } from '#app/leads/lead'
import { refuse } from '#app/http/refusal.server'

export const meta: MetaFunction = () => [{ title: 'Saved replies' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cannot } = await requirePermission(request, context, 'saved-replies:write', {
    as: 'page',
    to: 'write the saved replies',
    showCannot: true,
  })
  const ready = cannot === null
  return json(
    {
      cannotEdit: cannot,
      saved: ready ? context.replies.saved.list() : [],
      acknowledgement: ready ? context.replies.acknowledgement.text() : '',
      acknowledging: context.replies.acknowledgement.on,
      limits: savedReplyLimits,
    },
    { headers: ownerDataHeaders },
  )
}

/** Which form a refusal belongs to: a saved reply's id, the new one's form, or the acknowledgement's. */
type FormName = number | 'new' | 'acknowledgement'

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  await requirePermission(request, context, 'saved-replies:write', { as: 'page', to: 'write the saved replies' })
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, ['intent', 'id', 'name', 'text'])
  if (!fields)
    return json({ problem: { form: 'new' as FormName, error: notText, name: '', text: '' } }, { status: 400 })
  const { intent, id, name, text } = fields
  const which: FormName = intent === 'acknowledgement' ? 'acknowledgement' : isSubmissionId(id) ? Number(id) : 'new'
  const refused = (status: number, error: string) => json({ problem: { form: which, error, name, text } }, { status })
  const done =
    intent === 'save'
      ? await context.replies.saved.save({ ...(which === 'new' ? {} : { id: Number(id) }), name, text })
      : intent === 'delete' && typeof which === 'number'
        ? await context.replies.saved.remove(which)
        : intent === 'acknowledgement'
          ? await context.replies.acknowledgement.setText(text)
          : refuse(400, 'That change is not one this page knows.')
  if (!done.ok) return refused(done.status, done.error)
  return redirect('/farm-sales/saved-replies', 303)
}

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'
const buttonStyle =
  'rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50 disabled:opacity-60'

export default function SavedReplies() {
  const { cannotEdit, saved, acknowledgement, acknowledging, limits } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const problem = answer?.problem ?? null
  const busy = useNavigation().state === 'submitting'
  const problemFor = (form: FormName) => (problem?.form === form ? problem : null)

  return (
    <OwnerPage title="Saved replies">
      {cannotEdit ? (
        <CannotNote>{cannotEdit}</CannotNote>
      ) : (
        <>
          <p className="mt-3 text-stone-700">
            Answers you send often. On a card, choose one to fill the reply box: <code>{'{name}'}</code> becomes the
            visitor’s name, <code>{'{farm}'}</code> the farm’s, and <code>{'{products}'}</code> the products their
            message asked about. At most {limits.count} saved replies.
          </p>
          <ul className="mt-8 space-y-5">
            {saved.map((reply) => (
              <li key={reply.id}>
                <SavedReplyForm
                  id={reply.id}
                  name={problemFor(reply.id)?.name ?? reply.name}
                  text={problemFor(reply.id)?.text ?? reply.text}
                  problem={problemFor(reply.id)?.error ?? null}
                  busy={busy}
                />
              </li>
            ))}
          </ul>
          <h2 className="mt-10 font-serif text-2xl font-bold text-green-900">New saved reply</h2>
          <SavedReplyForm
            id={null}
            name={problemFor('new')?.name ?? ''}
            text={problemFor('new')?.text ?? ''}
            problem={problemFor('new')?.error ?? null}
            busy={busy}
          />
          <h2 className="mt-12 font-serif text-2xl font-bold text-green-900">Acknowledgement</h2>
          <p className="mt-2 text-stone-700">
            {acknowledging
              ? 'Sent once a day at most to each visitor whose message is not spam, right after they write.'
              : 'Not sent: turn it on in the settings (Visitors), with mail set up, to send it to each visitor whose message is not spam.'}{' '}
            It may name the farm (<code>{'{farm}'}</code>) but never repeats anything the visitor typed, not even their
            name: anyone can type anyone’s address into the form.
          </p>
          <Form method="post" className="mt-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200">
            <input type="hidden" name="intent" value="acknowledgement" />
            <label htmlFor="acknowledgement" className="mb-1.5 block text-sm font-semibold text-stone-800">
              Acknowledgement text
            </label>
            <textarea
              id="acknowledgement"
              name="text"
              rows={5}
              aria-invalid={problemFor('acknowledgement') ? true : undefined}
              aria-describedby={problemFor('acknowledgement') ? 'acknowledgement-problem' : undefined}
              defaultValue={problemFor('acknowledgement')?.text ?? acknowledgement}
              key={acknowledgement}
              className={fieldStyle}
            />
            {problemFor('acknowledgement') ? (
              <p id="acknowledgement-problem" role="alert" className="mt-1.5 text-sm font-medium text-red-800">
                Not saved: {problemFor('acknowledgement')!.error}
              </p>
            ) : null}
            <button type="submit" disabled={busy} className={`mt-3 ${buttonStyle}`}>
              Save acknowledgement
            </button>
          </Form>
        </>
      )}
    </OwnerPage>
  )
}

function SavedReplyForm({
  id,
  name,
  text,
  problem,
  busy,
}: {
  id: number | null
  name: string
  text: string
  problem: string | null
  busy: boolean
}) {
  const field = id === null ? 'new' : String(id)
  return (
    <Form
      method="post"
      // A fresh form once the saved text changes (after a save), so its fields show what is stored.
      key={`${name}\n${text}`}
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
      data-testid="saved-reply"
    >
      {id !== null ? <input type="hidden" name="id" value={id} /> : null}
      <label htmlFor={`name-${field}`} className="mb-1.5 block text-sm font-semibold text-stone-800">
        Name
      </label>
      <input
        id={`name-${field}`}
        name="name"
        defaultValue={name}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `problem-${field}` : undefined}
        className={fieldStyle}
      />
      <label htmlFor={`text-${field}`} className="mt-3 mb-1.5 block text-sm font-semibold text-stone-800">
        Text
      </label>
      <textarea
        id={`text-${field}`}
        name="text"
        rows={4}
        defaultValue={text}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `problem-${field}` : undefined}
        className={fieldStyle}
      />
      {problem ? (
        <p id={`problem-${field}`} role="alert" className="mt-1.5 text-sm font-medium text-red-800">
          Not saved: {problem}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" name="intent" value="save" disabled={busy} className={buttonStyle}>
          {id === null ? 'Save new reply' : 'Save'}
        </button>
        {id !== null ? (
          <button type="submit" name="intent" value="delete" disabled={busy} className={buttonStyle}>
            Delete
          </button>
        ) : null}
      </div>
    </Form>
  )
}
