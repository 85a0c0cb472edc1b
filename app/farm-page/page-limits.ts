/**
 * The longest each of the owner's words may be, in characters: the editor's fields say so and the
 * server's checks hold them to it. A module of its own, so the editor's script holds none of the
 * home page's (page-words.ts, story.ts).
 */
export const wordLimits = {
  welcome: 80,
  intro: 400,
  cardTitle: 80,
  cardText: 400,
  address: 300,
  directions: 1_000,
  phone: 30,
  note: 100,
  exceptions: 30,
}

/** The story's: its length, its paragraphs and links, and a link's address. */
export const storyLimits = { characters: 5_000, paragraphs: 30, links: 20, linkLength: 500 }
