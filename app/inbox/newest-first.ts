import type { Submission } from '#app/leads/lead'

/** One list, newest first, each submission once, whichever lists it came in. */
export function newestFirst(...lists: Submission[][]): Submission[] {
  const byId = new Map<number, Submission>()
  for (const list of lists)
    for (const submission of list) if (!byId.has(submission.id)) byId.set(submission.id, submission)
  return [...byId.values()].sort((a, b) => b.id - a.id)
}
