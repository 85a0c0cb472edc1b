/** Whether a parsed JSON value is one object (not an array, nor null): a body of named fields. */
export function isJsonObject(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
}
