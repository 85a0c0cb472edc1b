/** What a card needs to answer: whether mail can go out (and why not), the saved replies, the farm's name. */
export interface Answering {
  /** Why the owner cannot send from here (what to set), or null. */
  cannotReply: string | null
  savedReplies: Array<{ id: number; name: string; text: string }>
  farmName: string
  /** This page load's part of each reply form's key: a form sent twice is one reply. */
  formKey: string
}

/** A reply the page's action refused when sent without JavaScript: shown on its card, with the text kept. */
export interface ReplyProblem {
  id: number
  error: string
  text: string
}
