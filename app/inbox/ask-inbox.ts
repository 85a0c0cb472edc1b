import type { Submission, TagCount } from '#app/submissions/submission'

/** What a card says when its call never reached the site. */
export const unreachable = 'the farm site could not be reached. Check the connection and try again.'

/** What a card's call to the inbox API came to: the submission as it now is and the counts it moved, or the problem in words. */
export type InboxAnswer = { submission: Submission; counts: TagCount[] } | { problem: string }

/**
 * Sends a card's JSON call to the inbox API and reads the answer in the one error shape.
 * `answerIn` names the field that carries the submission (`data` for a change, `submission`
 * for a reply, whose `data` is the reply).
 */
export async function askInbox(
  url: string,
  { method, body, headers = {} }: { method: 'PATCH' | 'POST'; body: unknown; headers?: Record<string, string> },
  answerIn: 'data' | 'submission',
): Promise<InboxAnswer> {
  try {
    const response = await fetch(url, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    const answer = (await response.json().catch(() => null)) as
      (Partial<Record<typeof answerIn, Submission>> & { counts?: TagCount[]; error?: string }) | null
    const submission = answer?.[answerIn]
    if (response.ok && submission) return { submission, counts: answer?.counts ?? [] }
    return { problem: answer?.error ?? `the site answered ${response.status}.` }
  } catch {
    return { problem: unreachable }
  }
}
