import type { MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import type { action, loader } from '#app/submissions/home-page.server'
import { thankYouMessage } from '#app/submissions/contact-fields'
import { ContactForm } from '#app/submissions/contact-form'
import { PhotoSection } from '#app/photos/photo-section'

// The page's server half (loader, action, headers) lives with the rest of receiving; the route
// keeps only what the browser runs (decision 023).
export { action, headers, loader } from '#app/submissions/home-page.server'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.farm.name} — Fresh from our fields` : 'Welcome' },
  {
    name: 'description',
    content: 'Sign up for seasonal produce updates, farm events and exclusive offers straight from the farm.',
  },
]

const cards = (product: string) => [
  {
    title: `${product} Updates`,
    text: 'Be first to hear what is ripe in the fields: seasonal produce, farm events and our sustainable farming practices.',
    icon: 'M12 21c-4.97 0-9-3.582-9-8 0-3.5 2.5-6.5 6-7.6M12 21c4.97 0 9-3.582 9-8 0-3.5-2.5-6.5-6-7.6M12 21V9m0 0c0-3 1.5-5 4-6m-4 6c0-3-1.5-5-4-6',
  },
  {
    title: 'Exclusive Offers',
    text: 'Early access to limited harvests and special discounts, only for the people on our list.',
    icon: 'M20 12v8a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1v-8m16 0H4m16 0V8H4v4m8-4v13m0-13c-1.5-3-5-3.5-5-1s3 1 5 1Zm0 0c1.5-3 5-3.5 5-1s-3 1-5 1Z',
  },
]

export default function Home() {
  const { farm, sent, formToken, photos } = useLoaderData<typeof loader>()
  const posted = useActionData<typeof action>()
  return (
    <main className="mx-auto max-w-6xl px-4 pb-20 pt-12 sm:px-6 lg:pt-20">
      <section className="grid items-start gap-10 lg:grid-cols-[1.1fr_1fr] lg:gap-14">
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-amber-800">Fresh from our fields</p>
          <h1 className="mt-3 font-serif text-4xl font-bold leading-tight text-green-900 sm:text-5xl">
            Welcome to {farm.name}
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-stone-700">
            Fill out the form to stay updated with our latest products and receive exclusive offers.
          </p>
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
            {cards(farm.product).map((card) => (
              <li key={card.title} className="rounded-2xl bg-white/80 p-6 shadow-sm ring-1 ring-stone-200">
                <svg
                  viewBox="0 0 24 24"
                  aria-hidden="true"
                  className="h-10 w-10 rounded-xl bg-green-100 p-2 text-green-800"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.8"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d={card.icon} />
                </svg>
                <h2 className="mt-4 font-serif text-xl font-bold text-green-900">{card.title}</h2>
                <p className="mt-2 leading-relaxed text-stone-700">{card.text}</p>
              </li>
            ))}
          </ul>
        </div>
        <div id="contact" className="lg:sticky lg:top-24">
          <ContactForm
            key={posted ? 'posted' : 'fresh'}
            posted={posted}
            formToken={formToken}
            sentMessage={sent && !posted ? thankYouMessage : undefined}
          />
        </div>
      </section>
      <PhotoSection photos={photos} />
    </main>
  )
}
