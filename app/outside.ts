/**
 * One property of a value whose shape the code does not own (something thrown, a JSON answer, a
 * parsed mail's header, a notification's data): the value, when it has that property, else
 * undefined. Read without a cast, so a test of its type follows where it is used.
 */
export function propertyOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined
}

/** A property that must be text: the text, else undefined. */
export function textOf(value: unknown, name: string): string | undefined {
  const property = propertyOf(value, name)
  return typeof property === 'string' ? property : undefined
}

/**
 * An answer's body as text, read up to `most` bytes; null (the rest let go) when it is longer:
 * another server's answer never fills this process, however long it runs.
 */
export async function bodyUpTo(response: Response, most: number): Promise<string | null> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    size += value.byteLength
    if (size > most) {
      await reader.cancel().catch(() => {})
      return null
    }
    text += decoder.decode(value, { stream: true })
  }
}
