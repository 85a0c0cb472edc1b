/**
 * The farm's story: paragraphs of plain words, with links written [words](https://…). Parsed to
 * this tree and drawn by React, so nothing the owner types is ever read as HTML.
 */
export type StoryPiece = { kind: 'words'; text: string } | { kind: 'link'; text: string; href: string }
export type StoryParagraph = StoryPiece[]

export const linkPattern = /\[([^\]\n]{1,200})\]\(([^()\s]{1,2000})\)/g
// Letters a page never needs: the C0 controls but tab and newline, DEL, and the bidi overrides.
const unwanted = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g

/** A link's address as the page may use it (https, http, mailto, tel), else null. */
export function safeHref(href: string): string | null {
  if (/^(mailto:[^\s<>"]+@[^\s<>"]+|tel:\+?[0-9][0-9\-. ()]{2,30})$/i.test(href)) return href
  if (!/^https?:\/\/[^/]/i.test(href)) return null
  try {
    const url = new URL(href)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' ? url.href : null
  } catch {
    return null
  }
}

function piecesOf(paragraph: string): StoryParagraph {
  const pieces: StoryParagraph = []
  let from = 0
  for (const match of paragraph.matchAll(linkPattern)) {
    if (match.index > from) pieces.push({ kind: 'words', text: paragraph.slice(from, match.index) })
    const href = safeHref(match[2]!)
    // A stored link that is no longer safe is shown as its words only.
    pieces.push(href ? { kind: 'link', text: match[1]!, href } : { kind: 'words', text: match[1]! })
    from = match.index + match[0].length
  }
  if (from < paragraph.length) pieces.push({ kind: 'words', text: paragraph.slice(from) })
  return pieces
}

/** The story's tree: paragraphs split at blank lines, a line's break read as a space. */
export function parseStory(source: string): StoryParagraph[] {
  return source
    .replace(unwanted, '')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => paragraph !== '')
    .map(piecesOf)
}
