import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { pageHeaders } from '#app/http/page-headers.server'
import { requireMethod } from '#app/http/require-method.server'
import {
  contactFields,
  couldNotSend,
  spamTrapFields,
  tooManySubmissions,
  type ContactForm as ContactFormValues,
} from './contact-fields'
import { receive } from './receive.server'

export const headers = pageHeaders

export function loader({ request, context }: LoaderFunctionArgs) {
  const sent = new URL(request.url).searchParams.has('sent')
  return json({ ...context.homePage(), sent, formToken: context.spamTraps.issueToken() })
}

const blankForm: ContactFormValues = { name: '', email: '', message: '' }

/** The contact form posted without JavaScript: form data in, through `receive`, the page out. */
export async function action({ request, context }: ActionFunctionArgs) {
  requireMethod(request, ['POST'])
  let formData: FormData
  try {
    formData = await request.formData()
  } catch {
    return json(
      { values: blankForm, errors: {}, formError: 'We could not read the form. Please try again.' },
      { status: 400 },
    )
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
  const received = await receive(context, { fields: values, traps, clientAddress: context.clientAddress })
  switch (received.outcome) {
    case 'stored':
    case 'set aside':
      return redirect('/?sent#contact', 303)
    case 'invalid':
      return json({ values, errors: received.errors }, { status: 400 })
    case 'too many':
      return json(
        { values, errors: {}, formError: tooManySubmissions },
        { status: 429, headers: { 'Retry-After': String(received.retryAfterSeconds) } },
      )
    case 'failed':
      // What they typed stays in the form, to send again.
      return json({ values, errors: {}, formError: couldNotSend }, { status: 500 })
  }
}
