import type { Submission, TagCount } from './lead'
import { textOf } from '#app/outside'

/** What a card says when its call never reached the site. */
export const unreachable = 'the farm site could not be reached. Check the connection and try again.'

/** What a card's call to the inbox API came to: the submission as it now is and the counts it moved, or the problem in words. */
export type InboxAnswer = { submission: Submission; counts: TagCount[] } | { problem: string }

/**
 * Sends a call to the inbox API (with a JSON body, if any) and reads the answer in the one error
 * shape: the answer's body as it came, or the problem in words.
 */
export async function callInbox(
  url: string,
  {
    method,
    body,
    headers = {},
  }: { method: 'PATCH' | 'POST' | 'DELETE'; body?: unknown; headers?: Record<string, string> },
): Promise<{ status: number; answer: unknown } | { problem: string }> {
  try {
    const response = await fetch(url, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        Accept: 'application/json',
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    // A 204 has no body: its answer is null.
    const answer: unknown = await response.json().catch(() => null)
    if (response.ok) return { status: response.status, answer }
    return { problem: textOf(answer, 'error') ?? `the site answered ${response.status}.` }
  } catch {
    return { problem: unreachable }
  }
}

/**
 * A card's JSON call to the inbox API that answers with the submission as it now is. `answerIn`
 * names the field that carries it (`data` for a change, `submission` for a reply, whose `data`
 * is the reply).
 */
export async function askInbox(
  url: string,
  request: { method: 'PATCH' | 'POST'; body: unknown; headers?: Record<string, string> },
  answerIn: 'data' | 'submission',
): Promise<InboxAnswer> {
  const called = await callInbox(url, request)
  if ('problem' in called) return called
  const answer = called.answer as
    (Partial<Record<typeof answerIn, Submission>> & { counts?: TagCount[]; error?: string }) | null
  const submission = answer?.[answerIn]
  if (submission) return { submission, counts: answer?.counts ?? [] }
  return { problem: answer?.error ?? `the site answered ${called.status}.` }
}
