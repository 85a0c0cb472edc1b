/**
 * The named fields of a posted form as text ('' when absent), or null when any is a file: the
 * site's forms never send one, and a file must not be stored or mailed as "[object File]".
 */
export function formTexts<Name extends string>(form: FormData, names: readonly Name[]): Record<Name, string> | null {
  const texts = {} as Record<Name, string>
  for (const name of names) {
    const value = form.get(name)
    if (value !== null && typeof value !== 'string') return null
    texts[name] = value ?? ''
  }
  return texts
}

export const notText = 'Send the form’s fields as text, not as files.'
