import type * as CardMotion from './card-motion'

/**
 * framer-motion's mini animate (about 3 KB gzipped) is loaded with the first card that arrives
 * after the page, never with the page itself.
 */
let framer: Promise<typeof CardMotion> | undefined

/** Where a card that arrives after the page starts, so it is hidden until it enters. */
export const enteringStyle = { opacity: 0, transform: 'translateY(16px)' } as const

/** Fades a card that arrived after the page in as it rises into place; at once for reduced motion. */
export async function enter(card: HTMLElement) {
  try {
    const motion = await (framer ??= import('./card-motion'))
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches
    // Opacity and transform only, through the browser's own animations (framer-motion's mini
    // animate): they run off the main thread.
    await motion.animate(
      card,
      { opacity: [0, 1], transform: ['translateY(16px)', 'none'] },
      still ? { duration: 0 } : { duration: 0.35, ease: 'easeOut' },
    )
  } catch {
    // Without the animation (its chunk dropped, say) the card is simply shown, as below.
  }
  // Where it ends, kept once the animation is gone, whether it ran or not.
  card.style.opacity = '1'
  card.style.transform = 'none'
}
