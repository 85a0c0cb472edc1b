import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, type ClientLoaderFunctionArgs } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { visitorsView } from '#app/farm-page/farm-page.server'
import { FarmDetails, FarmWelcome } from '#app/farm-page/farm-home'
import { defaultWords, wordsIn } from '#app/farm-page/page-words.server'
import { catalogs } from '#app/language/catalogs.server'
import { loadMessages } from '#app/language/use-messages'

export const meta: MetaFunction = () => [
  { title: 'Preview of the farm’s page' },
  { name: 'robots', content: 'noindex' },
]

export const headers = pageHeaders

/** The home page as it will read: the draft, else what is published. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  await requirePermission(request, context, 'farm-page:edit', { as: 'page', to: 'preview the farm’s page' })
  const { draft, published } = context.farmPage.versions()
  const words = draft?.words ?? published?.words ?? defaultWords
  const page = visitorsView(words, context.farm, context.settings.config.push.siteUrl, Date.now())
  // As visitors read it at /: in the farm's first language.
  const [language = 'en'] = context.farm.languages
  return json(
    {
      farm: context.farm,
      language,
      isDraft: draft !== null,
      page: { ...page, words: wordsIn(page.words, catalogs[language]) },
    },
    { headers: ownerDataHeaders },
  )
}

export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const data = await serverLoader<typeof loader>()
  await loadMessages(data.language)
  return data
}

export default function FarmPagePreview() {
  const { farm, isDraft, page } = useLoaderData<typeof loader>()
  return (
    <>
      <div role="status" className="mx-auto mt-6 max-w-6xl px-4 sm:px-6">
        <div className="flex flex-wrap items-center gap-3 rounded-2xl bg-amber-100 px-5 py-3 text-amber-950 ring-1 ring-amber-300">
          <p className="grow">
            {isDraft
              ? 'Preview of your draft: visitors do not see it until you publish it.'
              : 'No draft: this is the page visitors see now.'}
          </p>
          <Link to="/farm-sales/page" className="font-semibold underline">
            Back to the editor
          </Link>
          {isDraft ? (
            <Form method="post" action="/farm-sales/page">
              <button
                type="submit"
                name="intent"
                value="publish-draft"
                className="rounded-full bg-green-800 px-4 py-1.5 text-sm font-semibold text-white hover:bg-green-900"
              >
                Publish this draft
              </button>
            </Form>
          ) : null}
        </div>
      </div>
      <main className="mx-auto max-w-6xl px-4 pb-20 pt-8 sm:px-6">
        <section className="grid items-start gap-10 lg:grid-cols-[1.1fr_1fr] lg:gap-14">
          <FarmWelcome words={page.words} farm={farm} />
          <p className="rounded-2xl border-2 border-dashed border-stone-300 p-8 text-center text-stone-600">
            The contact form sits here.
          </p>
        </section>
        <FarmDetails words={page.words} zone={farm.timeZone} opening={page.opening} exceptions={page.exceptions} />
      </main>
    </>
  )
}
