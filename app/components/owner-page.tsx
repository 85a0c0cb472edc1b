/** The note an owner's page shows instead of itself when it cannot be used yet (what to set). */
export function CannotNote({ children }: { children: React.ReactNode }) {
  return <p className="mt-6 rounded-2xl bg-amber-100 px-5 py-4 text-amber-950 ring-1 ring-amber-300">{children}</p>
}

/** An owner's page beside the inbox, under the owner's menu: its title and what it holds. */
export function OwnerPage({
  title,
  wide = false,
  children,
}: {
  title: string
  /** The updates' composer needs more room than a form. */
  wide?: boolean
  children: React.ReactNode
}) {
  return (
    <main className={`mx-auto ${wide ? 'max-w-4xl' : 'max-w-3xl'} px-4 pt-12 pb-20 sm:px-6 print:p-0`}>
      <h1 className="font-serif text-4xl font-bold text-green-900 print:text-2xl">{title}</h1>
      {children}
    </main>
  )
}
