import { Form, useNavigation } from '@remix-run/react'
import { availabilities } from '#app/data/enums'
import {
  availabilityWords,
  capitalised,
  priceTyped,
  priceWords,
  productIs,
  stockTyped,
  stockWords,
  weekLimits,
  type WeekProduct,
} from './week'

const fieldStyle =
  'block w-full rounded-xl border border-stone-300 bg-stone-50 px-3 py-2.5 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none'

/**
 * The week's list as the owner changes it on a phone: one card a product, its availability a row
 * of big choices (one tap), the price, what it buys and a note, and Save. Works without JavaScript.
 */
export function WeekEditor({
  items,
  saved,
  refused,
}: {
  items: Array<WeekProduct & { changedAt: string | null }>
  saved: string | null
  refused: { product: string; error: string } | null
}) {
  const navigation = useNavigation()
  return (
    <>
      <p className="mt-3 text-stone-700">
        What the home page says is for sale this week. The products are the ones the inbox looks for (Settings,
        Products); a product you never set is not shown.
      </p>
      {refused && refused.product === '' ? (
        <p role="alert" className="mt-4 font-semibold text-red-800">
          {refused.error}
        </p>
      ) : null}
      <ul className="mt-6 space-y-4">
        {items.map((item) => {
          const id = `week-${item.product.replace(/[^a-z0-9]+/gi, '-')}`
          const busy = navigation.state === 'submitting' && navigation.formData?.get('product') === item.product
          const error = refused?.product === item.product ? refused.error : null
          return (
            <li key={item.product} id={item.product} className="scroll-mt-24">
              <Form
                method="post"
                preventScrollReset
                aria-labelledby={`${id}-name`}
                className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-stone-200"
              >
                <input type="hidden" name="product" value={item.product} />
                <h2 id={`${id}-name`} className="font-serif text-xl font-bold text-green-900">
                  {capitalised(item.product)}
                </h2>
                <fieldset className="mt-3">
                  <legend className="sr-only">How {productIs(item.product)} for sale</legend>
                  <div className="flex flex-wrap gap-2">
                    {availabilities.map((availability) => (
                      <label key={availability} className="cursor-pointer">
                        <input
                          type="radio"
                          name="availability"
                          value={availability}
                          defaultChecked={item.changedAt !== null && item.availability === availability}
                          className="peer sr-only"
                        />
                        <span className="inline-block rounded-full px-3 py-2 text-sm font-semibold text-stone-800 ring-1 ring-stone-300 peer-checked:bg-green-800 peer-checked:text-white peer-checked:ring-green-800 peer-focus-visible:ring-2 peer-focus-visible:ring-green-700">
                          {availabilityWords[availability]}
                        </span>
                      </label>
                    ))}
                  </div>
                </fieldset>
                <details className="mt-3" open={error !== null}>
                  <summary className="cursor-pointer py-1 text-sm font-semibold text-green-800">
                    {[priceWords(item), stockWords(item), item.note].filter(Boolean).join(' · ') || 'Price and note'}
                    <span className="sr-only">: change the price, what is left, the note or the week it is ready</span>
                  </summary>
                  <div className="mt-3 grid grid-cols-2 gap-3">
                    <label className="text-sm font-semibold text-stone-800">
                      Price (€)
                      <input
                        name="price"
                        inputMode="decimal"
                        autoComplete="off"
                        maxLength={12}
                        defaultValue={priceTyped(item.priceCents)}
                        className={`mt-1 ${fieldStyle}`}
                      />
                    </label>
                    <label className="text-sm font-semibold text-stone-800">
                      For
                      <input
                        name="unit"
                        placeholder="a dozen"
                        maxLength={weekLimits.unit}
                        defaultValue={item.unit}
                        className={`mt-1 ${fieldStyle}`}
                      />
                    </label>
                  </div>
                  <input type="hidden" name="stockShown" value={stockTyped(item.stock)} />
                  <label className="mt-3 block text-sm font-semibold text-stone-800">
                    Left (counted as the price is; empty: not counted)
                    <input
                      name="stock"
                      inputMode="decimal"
                      autoComplete="off"
                      maxLength={12}
                      defaultValue={stockTyped(item.stock)}
                      className={`mt-1 ${fieldStyle}`}
                    />
                  </label>
                  <label className="mt-3 block text-sm font-semibold text-stone-800">
                    Note
                    <input
                      name="note"
                      maxLength={weekLimits.note}
                      defaultValue={item.note}
                      className={`mt-1 ${fieldStyle}`}
                    />
                  </label>
                  <label className="mt-3 block text-sm font-semibold text-stone-800">
                    Coming soon: ready from the week of
                    <input
                      type="date"
                      name="readyFrom"
                      defaultValue={item.readyFrom ?? ''}
                      className={`mt-1 ${fieldStyle}`}
                    />
                  </label>
                </details>
                <div className="mt-4 flex items-center gap-3">
                  <button
                    type="submit"
                    disabled={busy}
                    className="rounded-full bg-green-800 px-6 py-2.5 font-semibold text-white hover:bg-green-900 disabled:opacity-60"
                  >
                    {busy ? 'Saving…' : 'Save'}
                  </button>
                  {error ? (
                    <p role="alert" className="font-semibold text-red-800">
                      {error}
                    </p>
                  ) : saved === item.product ? (
                    <p role="status" className="font-semibold text-green-800">
                      Saved: it is on the home page.
                    </p>
                  ) : null}
                </div>
              </Form>
            </li>
          )
        })}
      </ul>
    </>
  )
}
