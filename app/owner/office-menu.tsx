import { NavLink } from '@remix-run/react'

/** One of the owner's pages in the menu: the server chose those this person's role opens. */
export interface OfficePage {
  to: string
  label: string
  end?: boolean
}

/** Whether a path is one of the owner's pages, where the menu shows. */
export const isOfficePath = (pathname: string) => /^\/farm-sales(\/|$)/.test(pathname)

function officeLinkClass({ isActive }: { isActive: boolean }) {
  return [
    'block rounded-full px-3 py-1.5 text-sm font-semibold whitespace-nowrap transition-colors',
    isActive
      ? 'bg-green-100 text-green-950 ring-1 ring-green-700'
      : 'text-stone-700 hover:bg-green-50 hover:text-green-900',
  ].join(' ')
}

/** The owner's menu: the same on every owner page, with the current page marked (in the header, and in the phone's menu). */
export function OfficeMenu({ pages, layout }: { pages: OfficePage[]; layout: 'bar' | 'list' }) {
  return (
    <ul className={layout === 'bar' ? 'flex items-center gap-1 overflow-x-auto py-1' : 'grid grid-cols-2 gap-1'}>
      {pages.map((page) => (
        <li key={page.to}>
          <NavLink to={page.to} end={page.end} className={officeLinkClass}>
            {page.label}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}
