import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { pageHeaders } from '#app/http/page-headers.server'
import { ownerDataHeaders } from '#app/owner/owner-data'
import { claimAction, claimedWords, goneWords } from '#app/team/claiming.server'
import { ClaimForm } from '#app/team/claim-form'
import { GoneLink } from '#app/team/password-form'

export const meta: MetaFunction = () => [{ title: 'Claim the farm’s site' }, { name: 'robots', content: 'noindex' }]

export const headers = pageHeaders

/** The one-time link `npm run claim` printed. */
export function loader({ params, context }: LoaderFunctionArgs) {
  const open = context.team.claimOpen({ link: params.token ?? '' })
  const gone = open ? null : context.owner.required ? claimedWords : goneWords
  return json({ gone }, { status: open ? 200 : 410, headers: ownerDataHeaders })
}

export const action = ({ request, params, context }: ActionFunctionArgs) =>
  claimAction(request, context, { link: params.token ?? '' })

export default function ClaimByLink() {
  const { gone } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  if (gone) return <GoneLink title="Claim the farm’s site" error={gone} />
  return <ClaimForm problem={answer?.problem ?? null} busy={busy} />
}
