import { json, redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { domAnimation, LazyMotion, MotionConfig } from 'framer-motion'
import { useEffect, useMemo } from 'react'
import { SubmissionCard } from '~/components/submission-card'
import { useLiveSubmissions } from '~/live/use-live-submissions'
import { ownerDataHeaders } from '~/owner/owner-data'
import { useArrivedSubmissions } from '~/submissions/arrived-submissions'
import { newestFirst } from '~/submissions/newest-first'

export const meta: MetaFunction = () => [
  { title: 'Farm Sales Data' },
  { name: 'description', content: 'Every customer submission, newest first, with AI-powered insights.' },
  { name: 'robots', content: 'noindex' },
]

export const headers: HeadersFunction = () => ownerDataHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await context.owner.mayWatch(request.headers.get('Cookie')))) {
    throw redirect('/sign-in?redirectTo=/farm-sales')
  }
  try {
    return json({ submissions: context.submissions.list(), loadFailed: false })
  } catch (error) {
    context.log.error({ err: error }, 'could not list the submissions')
    return json({ submissions: [], loadFailed: true })
  }
}

// Without JavaScript the entrance animation never runs, so the cards must not wait for it.
const visibleWithoutScript = '.submission-card{opacity:1!important;transform:none!important}'

export default function FarmSales() {
  const { submissions: loaded, loadFailed } = useLoaderData<typeof loader>()
  const { arrived, add } = useArrivedSubmissions()
  const submissions = useMemo(() => newestFirst(arrived, loaded), [arrived, loaded])

  useEffect(() => {
    if (loadFailed) console.error('Failed to fetch submissions')
  }, [loadFailed])
  useLiveSubmissions(submissions[0]?.id ?? 0, add)

  return (
    <main className="mx-auto max-w-4xl px-4 pb-20 pt-12 sm:px-6">
      <h1 className="font-serif text-4xl font-bold text-green-900">Farm Sales Data</h1>
      <p className="mt-3 text-lg text-stone-700">Review customer submissions and AI-powered insights.</p>
      {submissions.length === 0 ? (
        <div className="mt-10 rounded-2xl border-2 border-dashed border-stone-300 bg-white/60 px-6 py-14 text-center">
          <p className="font-serif text-xl font-bold text-green-900">No submissions yet.</p>
          <p className="mt-2 text-stone-700">Submissions will appear here once customers fill out the contact form.</p>
        </div>
      ) : (
        <LazyMotion features={domAnimation} strict>
          <MotionConfig reducedMotion="user">
            <noscript>
              <style>{visibleWithoutScript}</style>
            </noscript>
            <ol aria-label="Submissions, newest first" className="mt-10 space-y-5">
              {submissions.map((submission, index) => (
                <SubmissionCard key={submission.id} submission={submission} index={index} />
              ))}
            </ol>
          </MotionConfig>
        </LazyMotion>
      )}
    </main>
  )
}
