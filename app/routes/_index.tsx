import type { MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import type { action, loader } from '#app/submissions/home-page.server'
import { thankYouMessage } from '#app/submissions/contact-fields'
import { ContactForm } from '#app/submissions/contact-form'
import { FarmDetails, FarmWelcome } from '#app/farm-page/farm-home'
import { seoTags } from '#app/farm-page/seo-tags'
import { JsonLd } from '#app/farm-page/json-ld'
import { useNonce } from '#app/nonce'
import { ownStylesheet } from '#app/stylesheet'
import { PhotoSection } from '#app/photos/photo-section'
import { WeekSection } from '#app/this-week/week-section'

// The page's server half (loader, action, headers) lives with the rest of receiving; the route
// keeps only what the browser runs (decision 023).
export { action, headers, loader } from '#app/submissions/home-page.server'

export const handle = ownStylesheet('visitor')

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? seoTags(data.page.seo) : [{ title: 'Welcome' }])

export default function Home() {
  const { farm, page, sent, formToken, photos, week } = useLoaderData<typeof loader>()
  const posted = useActionData<typeof action>()
  const nonce = useNonce()
  return (
    <main className="mx-auto max-w-6xl px-4 pb-20 pt-12 sm:px-6 lg:pt-20">
      <section className="grid items-start gap-10 lg:grid-cols-[1.1fr_1fr] lg:gap-14">
        <FarmWelcome words={page.words} farm={farm} />
        <div id="contact" className="lg:sticky lg:top-24">
          <ContactForm
            key={posted ? 'posted' : 'fresh'}
            posted={posted}
            formToken={formToken}
            sentMessage={sent && !posted ? thankYouMessage : undefined}
          />
        </div>
      </section>
      <WeekSection {...week} timeZone={farm.timeZone} formToken={formToken} />
      <PhotoSection photos={photos} />
      <FarmDetails words={page.words} zone={farm.timeZone} line={page.openingLine} exceptions={page.exceptions} />
      <JsonLd data={page.seo.jsonLd} nonce={nonce} />
    </main>
  )
}
