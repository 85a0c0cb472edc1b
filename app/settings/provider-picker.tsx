import { useEffect, useState } from 'react'
import type { FieldState } from './fields'
import { fieldsOf, providerOf, type MailProvider } from './mail-providers'

/** Puts a provider's servers into the mail form's fields, but for those the environment locks. */
function fillIn(form: HTMLFormElement | null, provider: MailProvider | undefined) {
  if (!form || !provider) return
  for (const [key, value] of Object.entries(fieldsOf(provider))) {
    const field = form.elements.namedItem(key)
    if ((field instanceof HTMLInputElement || field instanceof HTMLSelectElement) && !field.disabled)
      field.value = value
  }
}

/**
 * The form 'Use these settings' posts without JavaScript: the choice alone, so that Enter in the
 * mail form's fields still saves it (a form's first button is the one Enter presses).
 */
export function ProviderChoiceForm() {
  return (
    <form id="use-provider" method="post" action="/farm-sales/settings#mail" hidden>
      <input type="hidden" name="section" value="mail" />
    </form>
  )
}

/**
 * The mail form's first question: who the farm's mail is with. Choosing fills in both servers,
 * their ports and security at once (with JavaScript), or through 'Use these settings' (without);
 * the line below says which password the provider takes and where to make it.
 */
export function ProviderPicker({
  providers,
  states,
  typed,
}: {
  providers: MailProvider[]
  states: FieldState[]
  typed?: Record<string, string>
}) {
  const valueOf = (key: string) => typed?.[key] ?? states.find((state) => state.key === key)?.value ?? null
  const known = providerOf(providers, { sending: valueOf('SMTP_HOST'), reading: valueOf('IMAP_HOST') })
  const [chosen, setChosen] = useState(typed?.provider ?? known?.id ?? '')
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const provider = providers.find((each) => each.id === chosen)
  return (
    <div>
      <label htmlFor="mail-provider" className="mb-1.5 block text-sm font-semibold text-stone-800">
        Your mail provider
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <select
          id="mail-provider"
          name="provider"
          form="use-provider"
          value={chosen}
          aria-describedby="mail-provider-help"
          onChange={(event) => {
            setChosen(event.target.value)
            fillIn(
              event.target.closest('form'),
              providers.find((each) => each.id === event.target.value),
            )
          }}
          className="block w-full max-w-sm rounded-xl border border-stone-300 bg-stone-50 px-3 py-2 text-base focus:bg-white focus:ring-2 focus:ring-green-700 focus:outline-none"
        >
          <option value="">Choose…</option>
          {providers.map((each) => (
            <option key={each.id} value={each.id}>
              {each.name}
            </option>
          ))}
        </select>
        {hydrated ? null : (
          <button
            type="submit"
            form="use-provider"
            name="intent"
            value="use-provider"
            className="rounded-full px-4 py-1.5 text-sm font-semibold text-green-900 ring-1 ring-green-300 hover:bg-green-50"
          >
            Use these settings
          </button>
        )}
      </div>
      <p id="mail-provider-help" className="mt-1 text-sm text-stone-600">
        {provider ? (
          <>
            {provider.password}{' '}
            {provider.link ? (
              <a
                href={provider.link.href}
                target="_blank"
                rel="noreferrer"
                className="font-semibold text-green-800 underline"
              >
                {provider.link.words}
              </a>
            ) : null}
          </>
        ) : (
          'Choosing it fills in where the site sends and reads mail; or choose Another provider and type them.'
        )}
      </p>
    </div>
  )
}
