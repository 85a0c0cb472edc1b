import type * as CardMotion from './card-motion'

/**
 * framer-motion (about 25 KB gzipped) is loaded once the page is up rather than with it, so
 * the inbox paints and hydrates without waiting for it; only the entrance waits.
 */
let framer: Promise<typeof CardMotion> | undefined

/** Where a card starts, rendered with it (server too), so it is hidden until it enters. */
export const enteringStyle = { opacity: 0, transform: 'translateY(16px)' } as const

/** Fades the card in as it rises into place, after `delaySeconds`; at once for reduced motion. */
export async function enter(card: HTMLElement, delaySeconds: number) {
  try {
    const motion = await (framer ??= import('./card-motion'))
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches
    await motion.animate(
      card,
      { opacity: [0, 1], y: [16, 0] },
      still ? { duration: 0 } : { duration: 0.35, delay: delaySeconds },
    )
  } catch {
    // Without the animation the card must still be seen.
    card.style.opacity = '1'
    card.style.transform = 'none'
  }
}
