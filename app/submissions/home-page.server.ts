import { json, redirect, type ActionFunctionArgs, type AppLoadContext } from '@remix-run/node'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import { catalogs } from '#app/language/catalogs.server'
import { homePathOf, isLanguage, type Language } from '#app/language/languages'
import { contactFields, spamTrapFields, type ContactForm as ContactFormValues } from './contact-fields'
import { receive } from './receive.server'

export const headers = pageHeaders

interface Visit {
  request: Request
  context: AppLoadContext
}

/**
 * The language of a home page's address other than /: `nl/` is Dutch on a farm that speaks it
 * after its first; null for anything else (a language it does not speak, its first, another case).
 */
export function languageOfHomePath(splat: string | undefined, farmLanguages: readonly Language[]): Language | null {
  const code = splat?.endsWith('/') ? splat.slice(0, -1) : null
  if (!code || !isLanguage(code) || code === farmLanguages[0] || !farmLanguages.includes(code)) return null
  return code
}

const blankForm: ContactFormValues = { name: '', email: '', message: '' }

/** The contact form posted without JavaScript to / (the farm's first language). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  receiveForm(context.farm.languages[0] ?? 'en', { request, context })

/** The contact form posted without JavaScript: form data in, through `receive`, the page out in its language. */
export async function receiveForm(language: Language, { request, context }: Visit) {
  requireMethod(request, ['POST'])
  const messages = catalogs[language]
  let formData: FormData
  try {
    formData = await request.formData()
  } catch {
    return json({ values: blankForm, errors: {}, formError: messages.couldNotRead() }, { status: 400 })
  }
  const text = (key: string) => {
    const value = formData.get(key)
    return typeof value === 'string' ? value : ''
  }
  const values = Object.fromEntries(contactFields.map((field) => [field, text(field)])) as ContactFormValues
  // As sent, files too: a hidden field filled with a file is filled all the same.
  const traps = Object.fromEntries(
    Object.values(spamTrapFields).map((field) => [field, formData.get(field) ?? undefined]),
  )
  const received = await receive(context, { fields: values, traps, clientAddress: context.clientAddress, language })
  switch (received.outcome) {
    case 'stored':
    case 'set aside':
      return redirect(`${homePathOf(language, context.farm.languages)}?sent#contact`, 303)
    case 'invalid':
      return json({ values, errors: received.errors }, { status: 400 })
    case 'too many':
      return json(
        { values, errors: {}, formError: messages.tooManySubmissions() },
        { status: 429, headers: { 'Retry-After': String(received.retryAfterSeconds) } },
      )
    case 'failed':
      // What they typed stays in the form, to send again.
      return json({ values, errors: {}, formError: messages.couldNotSend() }, { status: 500 })
  }
}
