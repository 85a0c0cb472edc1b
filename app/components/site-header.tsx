import { Form, Link, NavLink, useLocation } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'
import type { Messages } from '#app/language/compiled/messages'
import { Logo } from './logo'

const scrolledAfterPx = 10

/** What the header says, in the page's language. */
export type HeaderMessages = Pick<
  Messages,
  'navHome' | 'navFarmSales' | 'navMain' | 'openMenu' | 'closeMenu' | 'mainMenu'
>

const linksOf = (messages: HeaderMessages, homePath: string) => [
  { to: homePath, label: messages.navHome(), farmSales: false },
  { to: '/farm-sales', label: messages.navFarmSales(), farmSales: true },
]

function navLinkClass({ isActive }: { isActive: boolean }) {
  return [
    'block rounded-full px-4 py-2 text-sm font-semibold transition-colors',
    isActive ? 'bg-green-800 text-white' : 'text-stone-700 hover:bg-green-50 hover:text-green-900',
  ].join(' ')
}

export function SiteHeader({
  farmName,
  messages,
  homePath,
  ownerSignedIn,
  newSubmissions,
  failedReplies,
  office,
}: {
  farmName: string
  messages: HeaderMessages
  /** The home page in the page's language: / for the farm's first, /nl/ for another. */
  homePath: string
  ownerSignedIn: boolean
  /** On the owner's pages, their menu: as a bar under the header on wide screens, as a list in the phone's menu. */
  office: { bar: ReactNode; list: ReactNode } | null
  /** Submissions not yet handled; null for visitors who may not read the inbox. */
  newSubmissions: number | null
  /** Mails to visitors that failed and wait for the owner; null for visitors. */
  failedReplies: number | null
}) {
  const [scrolled, setScrolled] = useState(false)
  const [menuOpen, setMenuOpen] = useState(false)
  const location = useLocation()

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > scrolledAfterPx)
    update()
    window.addEventListener('scroll', update, { passive: true })
    return () => window.removeEventListener('scroll', update)
  }, [])

  useEffect(() => setMenuOpen(false), [location.pathname])
  const links = linksOf(messages, homePath)

  return (
    <header
      data-scrolled={scrolled}
      className={`fixed inset-x-0 top-0 z-40 border-b transition-all print:hidden duration-300 ${
        scrolled ? 'border-stone-200/70 bg-white/75 shadow-md backdrop-blur-md' : 'border-transparent bg-amber-50'
      }`}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link
          to={homePath}
          className="flex items-center gap-2 rounded-full font-serif text-lg font-bold text-green-900"
        >
          <Logo className="h-9 w-9 shrink-0" />
          <span>{farmName}</span>
        </Link>
        <nav aria-label={messages.navMain()} className="hidden md:block">
          <ul className="flex items-center gap-1">
            <NavItems
              links={links}
              ownerSignedIn={ownerSignedIn}
              newSubmissions={newSubmissions}
              failedReplies={failedReplies}
            />
          </ul>
        </nav>
        <button
          type="button"
          className="rounded-lg p-2 text-green-900 hover:bg-green-50 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? messages.closeMenu() : messages.openMenu()}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg
            viewBox="0 0 24 24"
            className="h-6 w-6"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>
      {office ? (
        <nav aria-label="The farm’s office" className="hidden border-t border-stone-200/70 md:block">
          <div className="mx-auto flex h-11 max-w-6xl items-center px-4 sm:px-6">{office.bar}</div>
        </nav>
      ) : null}
      <nav
        id="mobile-menu"
        aria-label={messages.mainMenu()}
        hidden={!menuOpen}
        className="border-t border-stone-200 bg-white px-4 py-3 md:hidden"
      >
        <ul className="flex flex-col gap-1">
          <NavItems
            links={links}
            ownerSignedIn={ownerSignedIn}
            newSubmissions={newSubmissions}
            failedReplies={failedReplies}
          />
        </ul>
        {/* Written only once opened: the page's HTML carries the office's links once, in the bar. */}
        {office && menuOpen ? (
          <div className="mt-3 border-t border-stone-200 pt-3">
            <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-stone-600 uppercase">The farm’s office</p>
            {office.list}
          </div>
        ) : null}
      </nav>
    </header>
  )
}

function SignOutButton() {
  return (
    <Form method="post" action="/sign-out">
      <button
        type="submit"
        className="block w-full rounded-full px-4 py-2 text-left text-sm font-semibold text-stone-700 hover:bg-green-50 hover:text-green-900"
      >
        Sign out
      </button>
    </Form>
  )
}

function NavItems({
  links,
  ownerSignedIn,
  newSubmissions,
  failedReplies,
}: {
  links: ReturnType<typeof linksOf>
  ownerSignedIn: boolean
  newSubmissions: number | null
  failedReplies: number | null
}) {
  return (
    <>
      {links.map((link) => {
        const badge = link.farmSales ? newSubmissions : null
        const failed = link.farmSales ? failedReplies : null
        const named = [
          link.label,
          ...(badge ? [`${badge} new`] : []),
          ...(failed ? [`${failed} ${failed === 1 ? 'reply' : 'replies'} not delivered`] : []),
        ]
        return (
          <li key={link.to}>
            {/* Named in full ("Farm Sales, 8 new"): the badge’s number alone would run into the words. */}
            <NavLink
              to={link.to}
              end
              className={navLinkClass}
              aria-label={named.length > 1 ? named.join(', ') : undefined}
            >
              {link.label}
              {badge ? (
                <span className="ml-1.5 rounded-full bg-amber-300 px-1.5 py-0.5 text-xs font-bold text-amber-950">
                  {badge}
                </span>
              ) : null}
              {failed ? (
                <span
                  data-testid="failed-replies"
                  title={`${failed} ${failed === 1 ? 'reply' : 'replies'} not delivered`}
                  className="ml-1.5 rounded-full bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white"
                >
                  {failed} failed
                </span>
              ) : null}
            </NavLink>
          </li>
        )
      })}
      {ownerSignedIn ? (
        <li>
          <SignOutButton />
        </li>
      ) : null}
    </>
  )
}
