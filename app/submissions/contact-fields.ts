// What the contact form is made of, without its validation (contact-validation.ts), so a page can
// show the form before it loads the validation.
export const contactFields = ['name', 'email', 'message'] as const
export type ContactField = (typeof contactFields)[number]
export type ContactForm = Record<ContactField, string>
export type ContactFormErrors = Partial<Record<ContactField, string>>

/**
 * Extra fields the site's own form sends. The API ignores them when they are
 * missing, so other clients can keep posting the plain {name, email, message}.
 */
export const spamTrapFields = { honeypot: 'website', startedAt: 'formToken' } as const
