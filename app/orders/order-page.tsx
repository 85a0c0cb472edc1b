import { Form } from '@remix-run/react'
import type { Order } from '#app/leads/order'
import { lineWords, momentWords, moneyWords, pickUpWords } from './order-words'
import type { FarmPlace, VisitorOrder } from './visitor-order'

/** What the order's page says it did, or why it could not. */
export type OrderPageSaid = { ok: true; said: string } | { ok: false; error: string }

const statusWords: Record<Exclude<Order['status'], 'confirmed'>, string> = {
  cancelled: 'This order is cancelled.',
  collected: 'This order was collected. Thank you!',
  'not-collected': 'This order was not collected on its day.',
}

function Lines({ order }: { order: VisitorOrder }) {
  return (
    <>
      <ul className="mt-4 divide-y divide-stone-200 border-y border-stone-200">
        {order.lines.map((line, index) => (
          <li key={index} className="flex justify-between gap-4 py-2">
            <span>{lineWords(line)}</span>
            <span className="text-stone-700">
              {line.priceCents === null ? 'priced at pick-up' : moneyWords(line.priceCents)}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-3 flex justify-between gap-4 font-semibold">
        <span>Total</span>
        <span>{order.totalCents === null ? 'as priced at pick-up' : moneyWords(order.totalCents)}</span>
      </p>
      {order.status === 'confirmed' ? (
        <p className="mt-3 text-stone-700">
          You pay at pick-up: there is nothing to pay online and no account to make.
        </p>
      ) : null}
    </>
  )
}

function WhereAndWhen({ order, findUs }: { order: VisitorOrder; findUs: FarmPlace }) {
  // Once it is done with, only the day it was for: no one is to come.
  if (order.status !== 'confirmed') {
    return <p className="mt-6 text-stone-700">It was to be picked up on {pickUpWords(order.pickUp)}.</p>
  }
  return (
    <dl className="mt-6 space-y-3">
      <div>
        <dt className="font-semibold text-green-900">When</dt>
        <dd>{pickUpWords(order.pickUp)}</dd>
      </div>
      {findUs.address ? (
        <div>
          <dt className="font-semibold text-green-900">Where</dt>
          <dd className="whitespace-pre-line">{findUs.address}</dd>
          {findUs.directions ? <dd className="mt-1 text-stone-700">{findUs.directions}</dd> : null}
        </div>
      ) : null}
    </dl>
  )
}

/** How to reach the farm once the link can no longer change the order. */
function ReachUs({ farm, findUs }: { farm: string; findUs: FarmPlace }) {
  return findUs.phone ? (
    <>
      To change it now, call {farm} on{' '}
      <a href={`tel:${findUs.phone.replace(/(?!^\+)[^\d]/g, '')}`} className="font-semibold text-green-800 underline">
        {findUs.phone}
      </a>{' '}
      or answer the mail that confirmed it.
    </>
  ) : (
    <>To change it now, answer the mail from {farm} that confirmed it.</>
  )
}

function Cancel({ order, farm, findUs, zone }: { order: VisitorOrder; farm: string; findUs: FarmPlace; zone: string }) {
  if (order.status !== 'confirmed') return null
  const until = momentWords(order.cancelUntil, zone)
  if (!order.mayCancel) {
    return (
      <p className="mt-6 text-stone-800">
        It could be cancelled here until {until}. <ReachUs farm={farm} findUs={findUs} />
      </p>
    )
  }
  return (
    <Form method="post" className="mt-6">
      <p className="text-stone-800">Plans changed? You may cancel this order here until {until}.</p>
      <input type="hidden" name="intent" value="cancel" />
      <button
        type="submit"
        className="mt-4 rounded-full px-5 py-2 font-semibold text-red-900 ring-1 ring-red-300 hover:bg-red-50 focus:outline-none focus:ring-2 focus:ring-red-700"
      >
        Cancel my order
      </button>
    </Form>
  )
}

/** The visitor's order by its link: what, how much, when and where, pay at pick-up, and its cancel. */
export function OrderPage({
  farm,
  order,
  findUs,
  zone,
  said,
}: {
  farm: string
  order: VisitorOrder
  findUs: FarmPlace
  zone: string
  said: OrderPageSaid | null
}) {
  return (
    <main className="mx-auto max-w-lg px-4 py-12 sm:px-6 sm:py-16">
      <div className="rounded-3xl bg-white p-6 shadow-xl shadow-green-900/10 ring-1 ring-stone-200 sm:p-8">
        <h1 className="font-serif text-3xl font-bold text-green-900">Your order from {farm}</h1>
        <p className="mt-2 text-stone-700">For {order.name}</p>
        {said ? (
          <p
            role={said.ok ? 'status' : 'alert'}
            className={`mt-4 font-semibold ${said.ok ? 'text-green-800' : 'text-red-800'}`}
          >
            {said.ok ? said.said : said.error}
          </p>
        ) : null}
        {order.status !== 'confirmed' && !said?.ok ? (
          <p className="mt-4 font-semibold text-stone-800">{statusWords[order.status]}</p>
        ) : null}
        <Lines order={order} />
        <WhereAndWhen order={order} findUs={findUs} />
        <Cancel order={order} farm={farm} findUs={findUs} zone={zone} />
      </div>
    </main>
  )
}
