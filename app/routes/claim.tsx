import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { jsonError } from '#app/http/json.server'
import { pageHeaders } from '#app/http/page-headers.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { ClaimForm } from '#app/team/claim-form'
import { ClaimSteps } from '#app/team/claim-note'
import { claimAction, claimedWords } from '#app/team/claiming.server'
import { GoneLink } from '#app/team/password-form'

export const meta: MetaFunction = () => [{ title: 'Claim the farm’s site' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** Claiming the site: on its own machine, the form itself; anywhere else, the command that prints a link. */
export function loader({ request, context }: LoaderFunctionArgs) {
  const way = context.team.claimWayFor(request, context.clientAddress)
  if (!way) return json({ claimed: claimedWords, claim: null }, { status: 410 })
  return json({ claimed: null, claim: way.here ? null : way }, { headers: ownerDataHeaders })
}

export function action({ request, context }: ActionFunctionArgs) {
  const way = context.team.claimWayFor(request, context.clientAddress)
  if (way && !way.here) {
    throw jsonError(403, `Claim the site on the machine it runs on, or with the link that ${way.command} prints.`)
  }
  return claimAction(request, context, { thisMachine: true })
}

export default function Claim() {
  const { claimed, claim } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  if (claimed) return <GoneLink title="Claim the farm’s site" error={claimed} />
  if (claim) {
    return (
      <main className="mx-auto max-w-xl px-4 py-20 sm:px-6">
        <h1 className="font-serif text-3xl font-bold text-green-900">Claim the farm’s site</h1>
        <ClaimSteps claim={claim} />
      </main>
    )
  }
  return <ClaimForm problem={answer?.problem ?? null} busy={busy} />
}
