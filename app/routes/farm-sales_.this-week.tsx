import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { CannotNote, OwnerPage } from '#app/components/owner-page'
import { formTexts, notText } from '#app/http/form-text.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { requirePermission } from '#app/owner/require-permission.server'
import { WeekEditor } from '#app/this-week/week-editor'
import { readStock, readWeekEdit } from '#app/this-week/week'

export const meta: MetaFunction = () => [{ title: 'This week at the farm' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cannot } = await requirePermission(request, context, 'week:change', {
    as: 'page',
    to: 'change this week’s list',
    showCannot: true,
  })
  const asked = new URL(request.url).searchParams
  const saved = asked.get('saved')
  return json(
    {
      cannotEdit: cannot,
      items: cannot ? [] : context.week.list.all(),
      saved,
      waitedFor: asked.get('news') === '1' ? saved : null,
    },
    { headers: ownerDataHeaders },
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  const { who } = await requirePermission(request, context, 'week:change', {
    as: 'page',
    to: 'change this week’s list',
  })
  const form = await request.formData().catch(() => new FormData())
  const fields = formTexts(form, [
    'product',
    'availability',
    'price',
    'unit',
    'note',
    'readyFrom',
    'stock',
    'stockShown',
  ])
  if (!fields) return json({ product: '', error: notText }, { status: 400 })
  const item = context.week.list.item(fields.product)
  if (!item)
    return json(
      { product: '', error: 'There is no such product: add it to the products in the settings.' },
      { status: 400 },
    )
  const read = readWeekEdit(fields)
  if (!read.ok) return json({ product: item.product, error: read.error }, { status: 400 })
  // A form without the count it showed is taken as one that showed none.
  const saved = await context.week.list.save(item.product, read.edit, who.id, {
    stockShown: readStock(fields.stockShown) ?? null,
  })
  if ('ok' in saved) return json({ product: item.product, error: saved.error }, { status: saved.status })
  const { nowForSale } = saved
  const told = nowForSale && context.week.tellMe.proposals().some((news) => news.product === item.product)
  return redirect(
    `/farm-sales/this-week?saved=${encodeURIComponent(item.product)}${told ? '&news=1' : ''}#${encodeURIComponent(item.product)}`,
    303,
  )
}

export default function ThisWeek() {
  const { cannotEdit, items, saved, waitedFor } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  return (
    <OwnerPage title="This week at the farm">
      {cannotEdit ? (
        <CannotNote>{cannotEdit}</CannotNote>
      ) : (
        <>
          {waitedFor ? (
            <p role="status" className="mt-6 rounded-2xl bg-green-50 px-5 py-4 text-green-950 ring-1 ring-green-200">
              People are waiting for {waitedFor}: the{' '}
              <Link to="/farm-sales/updates" className="font-semibold underline underline-offset-4">
                Updates
              </Link>{' '}
              page has their news ready to send.
            </p>
          ) : null}
          <WeekEditor items={items} saved={saved} refused={refused ?? null} />
        </>
      )}
    </OwnerPage>
  )
}
