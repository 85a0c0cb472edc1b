import { renderToStaticMarkup } from 'react-dom/server'
import { ClaimNote, type ClaimWayHere } from './claim-note'

/**
 * The claim note as markup (null once the site is claimed), for the root to place on the owner's
 * pages: it shows only what the root's loader read and does nothing in the browser, so no page's
 * script holds its code (every visitor's page would otherwise load it for nothing).
 */
export const claimNoteMarkup = (claim: ClaimWayHere | null) =>
  claim ? renderToStaticMarkup(<ClaimNote claim={claim} />) : null
