/** Every submission the list API holds for a view, following its `Link: rel="next"` pages. */
export async function listAll<T = Record<string, unknown>>(
  baseUrl: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<T[]> {
  const all: T[] = []
  let next: string | undefined = `${baseUrl}/api/submissions?limit=500${query ? `&${query}` : ''}`
  while (next) {
    const answer: Response = await fetch(next, { headers })
    if (!answer.ok) throw new Error(`GET ${next} answered ${answer.status}`)
    all.push(...((await answer.json()) as T[]))
    next = /<([^>]+)>; rel="next"/.exec(answer.headers.get('link') ?? '')?.[1]
  }
  return all
}
