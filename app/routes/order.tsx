import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { OrderPage, type OrderPageSaid } from '#app/orders/order-page'
import { momentWords } from '#app/orders/order-words'
import { LinkCard } from '#app/updates/link-page'
import { catalogs } from '#app/language/catalogs.server'

export const meta: MetaFunction = () => [{ title: 'Your order' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

// The link is the visitor's key to their order: no cache keeps the page.
const privateHeaders = { 'Cache-Control': 'no-store' }

const tokenOf = (request: Request) => (new URL(request.url).searchParams.get('token') ?? '').slice(0, 100)

function page(context: LoaderFunctionArgs['context'], token: string, said: OrderPageSaid | null, status = 200) {
  const order = context.visitorOrders.show(token)
  const { farm } = context
  // A link that names no order is answered in the farm's first language; an order's page is still English.
  const language = order ? 'en' : (farm.languages[0] ?? 'en')
  const messages = catalogs[language]
  const broken = { title: messages.linkInvalidTitle(), text: messages.linkInvalidText() }
  return json(
    {
      farm: farm.name,
      zone: farm.timeZone,
      order,
      findUs: context.homePage().page.words.findUs,
      said,
      broken,
      language,
    },
    { status: order ? status : 404, headers: privateHeaders },
  )
}

/** Opening the link changes nothing: it shows the order. */
export function loader({ request, context }: LoaderFunctionArgs) {
  return page(context, tokenOf(request), null)
}

/** The page's one button: cancel, by the link alone, until the cut-off. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const token = tokenOf(request)
  const form = await request.formData().catch(() => null)
  if (form?.get('intent') !== 'cancel') {
    return page(context, token, { ok: false, error: 'We could not read the form. Please try again.' }, 400)
  }
  const cancelled = await context.visitorOrders.cancel(token)
  if (!cancelled) return page(context, token, null)
  switch (cancelled.outcome) {
    case 'cancelled':
      return page(context, token, { ok: true, said: `Your order is cancelled. ${context.farm.name} has been told.` })
    case 'too late':
      return page(
        context,
        token,
        {
          ok: false,
          error: `It could be cancelled here only until ${momentWords(cancelled.until, context.farm.timeZone)}.`,
        },
        409,
      )
    case 'not confirmed':
      return page(context, token, { ok: false, error: 'This order can no longer be cancelled.' }, 409)
  }
}

export default function Order() {
  const loaded = useLoaderData<typeof loader>()
  const { farm, zone, order, findUs, said, broken } = useActionData<typeof action>() ?? loaded
  if (!order) {
    return (
      <LinkCard title={broken.title}>
        <p className="mt-4 text-stone-700">{broken.text}</p>
      </LinkCard>
    )
  }
  return <OrderPage farm={farm} order={order} findUs={findUs} zone={zone} said={said} />
}
