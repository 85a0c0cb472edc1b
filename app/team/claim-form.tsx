import { NewPasswordForm } from './password-form'

/** The form that claims the site: the first owner's name, address and password. */
export function ClaimForm({
  problem,
  busy,
}: {
  problem: { error: string; field?: string; name?: string; email?: string } | null
  busy: boolean
}) {
  return (
    <NewPasswordForm
      title="Claim the farm’s site"
      says="You become its first owner. From then on the inbox asks everyone to sign in, and you add the rest of the team from the Team page."
      email={null}
      askName
      problem={problem}
      busy={busy}
      submit="Make me the owner"
    />
  )
}
