// Only what a card's entrance uses (the WAAPI-only mini animate), imported on its own so the lazy
// chunk holds no more of framer-motion than that.
export { animate } from 'framer-motion/dom/mini'
