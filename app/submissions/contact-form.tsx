import { useRef, useState, type FormEvent } from 'react'
import { loadToasts, showToast } from '#app/components/toasts'
import {
  contactFields,
  spamTrapFields,
  type ContactField,
  type ContactForm as ContactFormValues,
  type ContactFormErrors,
} from './contact-fields'
import type * as Validation from './contact-validation'
import type { ContactFormResult } from './contact-validation'
import { homePathOf, type Language } from '#app/language/languages'
import { loadFormMessages, useMessages, usePageLanguage } from '#app/language/use-messages'
import type { FormMessages, Messages } from '#app/language/compiled/messages'

const emptyForm: ContactFormValues = { name: '', email: '', message: '' }

// The validation (zod, shared with the server) and what the form says once it is sent (its
// refusals, 'Submitting...') load when the visitor first turns to the form, not with the page; a
// failed load is tried again on the next submit.
let validation: Promise<typeof Validation> | undefined
function loadValidation() {
  validation ??= import('./contact-validation').catch((error: unknown) => {
    validation = undefined
    throw error
  })
  return validation
}

const loadChecks = (language: Language) => Promise.all([loadValidation(), loadFormMessages(language)])

function prepareForm(language: Language) {
  void loadChecks(language).catch(() => {})
  void loadToasts().catch(() => {})
}

interface ApiAnswer {
  message?: string
  error?: string
  errors?: ContactFormErrors
}

const labels: Record<ContactField, (messages: Messages) => string> = {
  name: (messages) => messages.nameLabel(),
  email: (messages) => messages.emailLabel(),
  message: (messages) => messages.messageLabel(),
}
const placeholders: Record<ContactField, (messages: Messages) => string> = {
  name: (messages) => messages.namePlaceholder(),
  email: (messages) => messages.emailPlaceholder(),
  message: (messages) => messages.messagePlaceholder(),
}

export interface ContactFormProps {
  /** What the server answered a form posted without JavaScript. */
  posted?: { values: ContactFormValues; errors: ContactFormErrors; formError?: string }
  /** The server stored a form posted without JavaScript. */
  sentMessage?: string
  /** When the form was handed out, signed by the server. */
  formToken: string
  /** The farm's languages: the form posts to its own language's page, the first's at `/`. */
  farmLanguages: readonly Language[]
}

export function ContactForm({ posted, sentMessage, formToken, farmLanguages }: ContactFormProps) {
  const messages = useMessages()
  const language = usePageLanguage()
  const fallbackError = messages.fallbackError()
  // Without JavaScript the form posts to its own page, which answers in its language.
  const home = homePathOf(language, farmLanguages)
  const [values, setValues] = useState<ContactFormValues>(posted?.values ?? emptyForm)
  const [errors, setErrors] = useState<ContactFormErrors>(posted?.errors ?? {})
  // While the form is being sent: the words it says meanwhile ('Submitting...').
  const [submitting, setSubmitting] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)

  function showErrors(found: ContactFormErrors) {
    setErrors(found)
    const first = contactFields.find((field) => found[field])
    if (first) focusField(first)
  }

  function focusField(field: ContactField) {
    const element = formRef.current?.elements.namedItem(field)
    if (element instanceof HTMLElement) element.focus()
  }

  function trapValues() {
    const honeypot = formRef.current?.elements.namedItem(spamTrapFields.honeypot)
    return {
      [spamTrapFields.honeypot]: honeypot instanceof HTMLInputElement ? honeypot.value : '',
      [spamTrapFields.startedAt]: formToken,
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    let form: ContactFormResult
    let formMessages: FormMessages
    try {
      const [checks, loaded] = await loadChecks(language)
      formMessages = loaded
      form = checks.parseContactForm(values, formMessages)
    } catch {
      return void showToast('error', fallbackError)
    }
    if (!form.success) return showErrors(form.errors)
    setErrors({})
    setSubmitting(formMessages.submitting())
    try {
      const response = await fetch('/api/submissions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        // The API's own language is English: only another is named.
        body: JSON.stringify({ ...form.data, ...trapValues(), ...(language === 'en' ? {} : { language }) }),
      })
      const answer: ApiAnswer | null = await response.json().catch(() => null)
      if (response.ok) {
        setValues(emptyForm)
        void showToast('success', answer?.message ?? formMessages.fallbackSuccess())
      } else {
        void showToast('error', answer?.error ?? fallbackError)
        if (answer?.errors) showErrors(answer.errors)
      }
    } catch {
      void showToast('error', fallbackError)
    } finally {
      setSubmitting(null)
    }
  }

  return (
    <form
      ref={formRef}
      method="post"
      action={home === '/' ? '/?index' : home}
      noValidate
      onSubmit={submit}
      onFocus={() => prepareForm(language)}
      aria-labelledby="contact-heading"
      className="rounded-3xl bg-white p-6 shadow-xl shadow-green-900/10 ring-1 ring-stone-200 sm:p-8"
    >
      <h2 id="contact-heading" className="font-serif text-2xl font-bold text-green-900">
        {messages.contactHeading()}
      </h2>
      {sentMessage ? (
        <p role="status" className="mt-4 rounded-xl bg-green-50 px-4 py-3 text-sm font-medium text-green-900">
          {sentMessage}
        </p>
      ) : null}
      {posted?.formError ? (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {posted.formError}
        </p>
      ) : null}
      <input type="hidden" name={spamTrapFields.startedAt} value={formToken} />
      {/* Left empty by people, who never see it; filled in by bots that fill in everything. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={spamTrapFields.honeypot}>{messages.leaveEmpty()}</label>
        <input
          id={spamTrapFields.honeypot}
          name={spamTrapFields.honeypot}
          type="text"
          tabIndex={-1}
          autoComplete="off"
        />
      </div>
      <div className="mt-6 space-y-5">
        {contactFields.map((field) => {
          const error = errors[field]
          const errorId = `${field}-error`
          const shared = {
            id: field,
            name: field,
            value: values[field],
            placeholder: placeholders[field](messages),
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? errorId : undefined,
            className: `block w-full rounded-xl border bg-stone-50 px-4 py-3 text-base text-stone-900 placeholder:text-stone-500 focus:bg-white focus:outline-none focus:ring-2 focus:ring-green-700 ${
              error ? 'border-red-600' : 'border-stone-300'
            }`,
            onChange: (event: { target: { value: string } }) => {
              const value = event.target.value
              setValues((current) => ({ ...current, [field]: value }))
              if (error) setErrors(({ [field]: _cleared, ...rest }) => rest)
            },
          }
          return (
            <div key={field}>
              <label htmlFor={field} className="mb-1.5 block text-sm font-semibold text-stone-800">
                {labels[field](messages)}
              </label>
              {field === 'message' ? (
                <textarea rows={5} {...shared} />
              ) : (
                <input type={field === 'email' ? 'email' : 'text'} autoComplete={field} {...shared} />
              )}
              {error ? (
                <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700">
                  {error}
                </p>
              ) : null}
            </div>
          )
        })}
      </div>
      <button
        type="submit"
        disabled={submitting !== null}
        className="mt-7 inline-flex w-full items-center justify-center gap-2 rounded-xl bg-green-800 px-6 py-3 text-base font-semibold text-white shadow transition hover:bg-green-900 focus:outline-none focus-visible:ring-4 focus-visible:ring-green-300 disabled:cursor-not-allowed disabled:opacity-70"
      >
        {submitting !== null ? (
          <>
            <span
              aria-hidden="true"
              className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
            />
            {submitting}
          </>
        ) : (
          messages.submit()
        )}
      </button>
    </form>
  )
}
