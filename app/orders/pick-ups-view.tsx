import { useEffect, useState } from 'react'
import { Link, useFetcher } from '@remix-run/react'
import type { Order } from '#app/leads/order'
import { dayWords, lineWords } from './order-words'
import { linesWords, packingList, pickUpTimeWords, statusWords, totalWords, type PickUpView } from './pick-ups'

export interface PickUpsData {
  view: PickUpView
  from: string
  to: string
  orders: Order[]
  /** Whether this person may mark orders (orders:work); else why not. */
  cannotMark: string | null
}

const tabClass = (active: boolean) =>
  `rounded-full px-4 py-2 text-sm font-semibold ring-1 ${
    active ? 'bg-green-800 text-white ring-green-800' : 'bg-white text-green-900 ring-stone-300 hover:bg-green-50'
  }`

/** Today, or the farm's week: two links, so the view is in the address (and works without JavaScript). */
function ViewChoice({ view }: { view: PickUpView }) {
  return (
    <nav aria-label="Which pick-ups" className="mt-6 flex flex-wrap gap-2 print:hidden">
      <Link
        to="/farm-sales/pickups"
        className={tabClass(view === 'today')}
        aria-current={view === 'today' ? 'page' : undefined}
      >
        Today
      </Link>
      <Link
        to="/farm-sales/pickups?days=week"
        className={tabClass(view === 'week')}
        aria-current={view === 'week' ? 'page' : undefined}
      >
        Next 7 days
      </Link>
    </nav>
  )
}

/** Print (once the page runs: the browser's own Print works without it) and the CSV. */
function PageActions({ view }: { view: PickUpView }) {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const button =
    'rounded-full bg-white px-4 py-2 text-sm font-semibold text-green-900 ring-1 ring-stone-300 hover:bg-green-50'
  return (
    <div className="mt-4 flex flex-wrap gap-2 print:hidden">
      {hydrated ? (
        <button type="button" className={button} onClick={() => window.print()}>
          Print
        </button>
      ) : null}
      <a href={`/farm-sales/pickups.csv${view === 'week' ? '?days=week' : ''}`} className={button} download>
        Download CSV
      </a>
    </div>
  )
}

function PackingList({ orders }: { orders: Order[] }) {
  const lines = packingList(orders.filter((order) => order.status !== 'not-collected'))
  return (
    <section aria-labelledby="packing" className="mt-8 print:mt-2">
      <h2 id="packing" className="font-serif text-2xl font-bold text-green-900 print:text-[11pt]">
        Packing list
      </h2>
      {lines.length === 0 ? (
        <p className="mt-2 text-stone-600">Nothing to pack.</p>
      ) : (
        <ul className="mt-3 flex flex-wrap gap-2 print:mt-1 print:gap-x-4 print:gap-y-0 print:text-[9pt]">
          {lines.map((line) => (
            <li
              key={`${line.product}\n${line.unit}`}
              className="rounded-xl bg-white px-3 py-2 ring-1 ring-stone-200 print:p-0 print:ring-0"
            >
              <span className="font-semibold">{lineWords(line)}</span>{' '}
              <span className="text-stone-600">
                ({line.orders} {line.orders === 1 ? 'order' : 'orders'})
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function MarkButtons({ order, cannotMark }: { order: Order; cannotMark: string | null }) {
  const fetcher = useFetcher<{ error?: string }>()
  if (cannotMark || order.status === 'cancelled') return null
  const button = 'rounded-full px-3 py-1.5 text-sm font-semibold ring-1 disabled:opacity-60'
  return (
    <fetcher.Form method="post" className="flex flex-wrap items-center gap-2 print:hidden">
      <input type="hidden" name="order" value={order.id} />
      {order.status !== 'collected' ? (
        <button
          name="status"
          value="collected"
          disabled={fetcher.state !== 'idle'}
          className={`${button} bg-green-800 text-white ring-green-800 hover:bg-green-900`}
          aria-label={`Mark collected: ${order.name}`}
        >
          Mark collected
        </button>
      ) : null}
      {order.status !== 'not-collected' ? (
        <button
          name="status"
          value="not-collected"
          disabled={fetcher.state !== 'idle'}
          className={`${button} bg-white text-stone-800 ring-stone-300 hover:bg-stone-100`}
          aria-label={`Mark not collected: ${order.name}`}
        >
          Mark not collected
        </button>
      ) : null}
      {fetcher.data?.error ? (
        <span role="alert" className="text-sm text-red-800">
          {fetcher.data.error}
        </span>
      ) : null}
    </fetcher.Form>
  )
}

const statusClass: Record<Order['status'], string> = {
  confirmed: 'bg-amber-100 text-amber-950',
  collected: 'bg-green-100 text-green-950',
  'not-collected': 'bg-red-100 text-red-950',
  cancelled: 'bg-stone-200 text-stone-800',
}

function OrderRow({ order, cannotMark }: { order: Order; cannotMark: string | null }) {
  return (
    <li
      id={`order-${order.id}`}
      className="grid gap-x-4 gap-y-1 rounded-2xl bg-white px-4 py-3 ring-1 ring-stone-200 sm:grid-cols-[7rem_1fr_auto] print:grid-cols-[4.5rem_10rem_1fr_3.5rem_5rem] print:gap-x-2 print:rounded-none print:border-b print:border-stone-300 print:px-0 print:py-0.5 print:text-[8.5pt] print:leading-tight print:ring-0"
    >
      <span className="font-semibold whitespace-nowrap text-green-900 tabular-nums">
        {pickUpTimeWords(order.pickUp)}
      </span>
      <span className="font-semibold break-words sm:col-start-2 print:col-start-2 print:truncate">{order.name}</span>
      <span className="sm:col-start-2 print:col-start-3">{linesWords(order.lines)}</span>
      <span className="tabular-nums sm:col-start-3 sm:row-start-1 sm:text-right print:col-start-4 print:row-start-1">
        {totalWords(order.totalCents)}
      </span>
      <span className="flex flex-wrap items-center gap-2 sm:col-start-2 print:col-start-5 print:row-start-1">
        <span
          className={`rounded-full px-2.5 py-0.5 text-sm font-semibold print:p-0 print:text-[8.5pt] ${statusClass[order.status]}`}
        >
          {statusWords[order.status]}
        </span>
        <MarkButtons order={order} cannotMark={cannotMark} />
      </span>
    </li>
  )
}

/** The orders of each day in the view, by pick-up time. */
function OrdersByDay({ orders, cannotMark }: { orders: Order[]; cannotMark: string | null }) {
  const days = [...new Set(orders.map((order) => order.pickUp.date))]
  return (
    <section aria-labelledby="orders" className="mt-8 print:mt-2">
      <h2 id="orders" className="font-serif text-2xl font-bold text-green-900 print:text-[11pt]">
        Orders
      </h2>
      {orders.length === 0 ? <p className="mt-2 text-stone-600">No orders to pick up.</p> : null}
      {days.map((day) => (
        <div key={day} className="mt-4 print:mt-1">
          <h3 className="font-semibold text-stone-700 print:text-[9pt]">{dayWords(day)}</h3>
          <ol className="mt-2 grid gap-2 print:mt-0 print:gap-0">
            {orders
              .filter((order) => order.pickUp.date === day)
              .map((order) => (
                <OrderRow key={order.id} order={order} cannotMark={cannotMark} />
              ))}
          </ol>
        </div>
      ))}
    </section>
  )
}

/** The pick-ups page: what to pack, who comes when, marked as they come. */
export function PickUpsView({ data, error }: { data: PickUpsData; error: string | null }) {
  const { view, from, to, orders, cannotMark } = data
  const collected = orders.filter((order) => order.status === 'collected').length
  return (
    <>
      <ViewChoice view={view} />
      <p className="mt-4 text-lg text-stone-700 print:mt-0 print:text-[10pt]">
        {from === to ? dayWords(from) : `${dayWords(from)} to ${dayWords(to)}`}:{' '}
        {orders.length === 1 ? '1 order' : `${orders.length} orders`}, {collected} collected
      </p>
      {error ? (
        <p role="alert" className="mt-4 rounded-2xl bg-red-50 px-5 py-4 text-red-950 ring-1 ring-red-200">
          {error}
        </p>
      ) : null}
      {cannotMark ? <p className="mt-4 text-stone-700 print:hidden">{cannotMark}</p> : null}
      <PageActions view={view} />
      <PackingList orders={orders} />
      <OrdersByDay orders={orders} cannotMark={cannotMark} />
    </>
  )
}
