import type { Messages } from './compiled/messages'
import de from './compiled/de'
import en from './compiled/en'
import es from './compiled/es'
import fr from './compiled/fr'
import it from './compiled/it'
import nl from './compiled/nl'
import pt from './compiled/pt'
import type { Language } from './languages'
import { pseudoOf } from './pseudo'

/** Every language's messages at once, for the server's own work that cannot wait for a load (the form's checks). */
export const catalogs: Record<Language, Messages> = { en, fr, de, es, it, nl, pt, 'en-XA': pseudoOf(en) }
