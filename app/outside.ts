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
