import type { ContactForm } from './contact-form'

export type Analyse = (form: ContactForm) => Promise<string>

/** A first reading of the message; the structured analysis replaces it. */
export const analyseMessage: Analyse = async ({ message }) => {
  const words = message.split(/\s+/).filter(Boolean).length
  const kind = message.includes('?') ? 'Asks a question' : 'Leaves a note'
  return `${kind} in ${words} ${words === 1 ? 'word' : 'words'}.`
}
