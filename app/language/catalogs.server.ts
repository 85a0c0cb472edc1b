import type { FormMessages, Messages, ServerMessages } from './compiled/messages'
import de from './compiled/de'
import deForm from './compiled/de.form'
import deServer from './compiled/de.server'
import en from './compiled/en'
import enForm from './compiled/en.form'
import enServer from './compiled/en.server'
import es from './compiled/es'
import esForm from './compiled/es.form'
import esServer from './compiled/es.server'
import fr from './compiled/fr'
import frForm from './compiled/fr.form'
import frServer from './compiled/fr.server'
import it from './compiled/it'
import itForm from './compiled/it.form'
import itServer from './compiled/it.server'
import nl from './compiled/nl'
import nlForm from './compiled/nl.form'
import nlServer from './compiled/nl.server'
import pt from './compiled/pt'
import ptForm from './compiled/pt.form'
import ptServer from './compiled/pt.server'
import type { Language } from './languages'
import { pseudoOf } from './pseudo'

/** A language's every message: what its pages render, what the form says, and what only the server says. */
export type AllMessages = Messages & FormMessages & ServerMessages

const english: AllMessages = { ...en, ...enForm, ...enServer }

/**
 * Every language's messages at once, for the server's own work that cannot wait for a load (the
 * form's checks) and for what it says itself (a page's title, the owner's words' defaults, the
 * answers to a post), which never reach the browser as messages.
 */
export const catalogs: Record<Language, AllMessages> = {
  en: english,
  fr: { ...fr, ...frForm, ...frServer },
  de: { ...de, ...deForm, ...deServer },
  es: { ...es, ...esForm, ...esServer },
  it: { ...it, ...itForm, ...itServer },
  nl: { ...nl, ...nlForm, ...nlServer },
  pt: { ...pt, ...ptForm, ...ptServer },
  'en-XA': pseudoOf(english),
}
