/** A sprouting seedling: the farm's mark. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <circle cx="16" cy="16" r="16" fill="#166534" />
      <path d="M16 25v-9" stroke="#fef3c7" strokeWidth="2.2" strokeLinecap="round" />
      <path d="M16 17c0-4.5 3-7.5 8-7.5 0 4.5-3 7.5-8 7.5Z" fill="#bbf7d0" />
      <path d="M16 19.5c0-3.6-2.4-6-6.4-6 0 3.6 2.4 6 6.4 6Z" fill="#fde68a" />
    </svg>
  )
}
