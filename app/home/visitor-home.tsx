import type { AppLoadContext, MetaDescriptor, SerializeFrom } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { ContactForm, type ContactFormProps } from '#app/submissions/contact-form'
import { FarmDetails, FarmWelcome } from '#app/farm-page/farm-home'
import { seoTags } from '#app/farm-page/seo-tags'
import { JsonLd } from '#app/farm-page/json-ld'
import { homePathOf, languageNames, type Language } from '#app/language/languages'
import { useMessages } from '#app/language/use-messages'
import { useNonce } from '#app/nonce'
import { PhotoSection } from '#app/photos/photo-section'
import { WeekSection, type WeekShown } from '#app/this-week/week-section'

/**
 * What the home page's loader sends: the page's data, in one of the farm's languages, with the
 * form's token; its title and description, this week's list, and the thanks after a form posted
 * without JavaScript, said by the loader in that language.
 */
export type HomeData = SerializeFrom<
  Omit<ReturnType<AppLoadContext['homePage']>, 'week'> & {
    week: WeekShown
    language: Language
    title: string
    description: string
    sentMessage: string | null
    formToken: string
  }
>

/** The home page's head: its words' tags, and with several languages its own address and each language's. */
export function homeMeta({ page, language, farm, title, description }: HomeData): MetaDescriptor[] {
  const tags = seoTags({ ...page.seo, title, description })
  if (farm.languages.length === 1) return tags
  const site = page.seo.canonical?.replace(/\/$/, '') ?? ''
  const at = (one: Language) => `${site}${homePathOf(one, farm.languages)}`
  const canonical = page.seo.canonical ? at(language) : null
  return [
    ...tags.filter(
      (tag) => !('rel' in tag && tag.rel === 'canonical') && !('property' in tag && tag.property === 'og:url'),
    ),
    ...(canonical
      ? [
          { tagName: 'link', rel: 'canonical', href: canonical },
          { property: 'og:url', content: canonical },
        ]
      : []),
    ...farm.languages.map((one) => ({ tagName: 'link', rel: 'alternate', hrefLang: one, href: at(one) })),
    { tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: at(farm.languages[0] ?? language) },
  ]
}

/** The visitor's home page in one of the farm's languages: at / (the first) or at its own address. */
export function VisitorHome({ data }: { data: HomeData }) {
  const { farm, page, sentMessage, formToken, photos, week, language } = data
  const posted = useActionData<NonNullable<ContactFormProps['posted']>>()
  const nonce = useNonce()
  return (
    <main className="mx-auto max-w-6xl px-4 pb-20 pt-12 sm:px-6 lg:pt-20">
      {farm.languages.length > 1 ? <LanguageSwitcher languages={farm.languages} current={language} /> : null}
      <section className="grid items-start gap-10 lg:grid-cols-[1.1fr_1fr] lg:gap-14">
        <FarmWelcome words={page.words} farm={farm} />
        <div id="contact" className="lg:sticky lg:top-24">
          <ContactForm
            key={posted ? 'posted' : 'fresh'}
            posted={posted}
            formToken={formToken}
            sentMessage={posted ? undefined : (sentMessage ?? undefined)}
            farmLanguages={farm.languages}
          />
        </div>
      </section>
      <WeekSection {...week} formToken={formToken} />
      <PhotoSection photos={photos} />
      <FarmDetails words={page.words} zone={farm.timeZone} opening={page.opening} exceptions={page.exceptions} />
      <JsonLd data={page.seo.jsonLd} nonce={nonce} />
    </main>
  )
}

/**
 * Each of the farm's languages, named in itself: plain links, so the page loads whole in the one
 * chosen. The first's is `/?language=…`, which a browser's Accept-Language does not turn away.
 */
function LanguageSwitcher({ languages, current }: { languages: Language[]; current: Language }) {
  const messages = useMessages()
  return (
    <nav aria-label={messages.languages()} className="-mt-6 mb-8 flex justify-end lg:-mt-12">
      <ul className="flex flex-wrap gap-2 text-sm font-semibold">
        {languages.map((one, index) => (
          <li key={one}>
            <a
              href={index === 0 ? `/?language=${one}` : homePathOf(one, languages)}
              hrefLang={one}
              lang={one}
              aria-current={one === current ? 'page' : undefined}
              className={
                one === current
                  ? 'rounded-full bg-green-800 px-3 py-1.5 text-white'
                  : 'rounded-full px-3 py-1.5 text-green-900 underline underline-offset-4 hover:bg-green-50'
              }
            >
              {languageNames[one]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
