export interface ClaimCommand {
  /** What to type: it prints a fresh one-time link. */
  command: string
  /** In a container it is typed on the host; otherwise in the site's folder on its machine. */
  inContainer: boolean
}

/** How this browser can claim the site: it is on the site's machine, or it is told the command. */
export type ClaimWayHere = { here: true } | ({ here: false } & ClaimCommand)

function RunIt({ claim }: { claim: ClaimCommand }) {
  return (
    <>
      run <code className="rounded bg-white/80 px-1.5 py-0.5 font-mono text-[0.9em] break-all">{claim.command}</code>{' '}
      {claim.inContainer ? 'on the machine the container runs on' : 'in the site’s folder on the machine it runs on'},
      and open the link it prints.
    </>
  )
}

/**
 * Said once on every owner page while no one has claimed the site: anyone can read it, and how to
 * claim it. The root's loader says it as markup (claim-note.server.tsx), so its link is a plain one.
 */
export function ClaimNote({ claim }: { claim: ClaimWayHere }) {
  return (
    <aside
      aria-label="Not claimed yet"
      data-testid="claim-note"
      className="border-b border-amber-300 bg-amber-100 text-amber-950"
    >
      <p className="mx-auto max-w-6xl px-4 py-2.5 text-sm sm:px-6">
        <strong>Anyone who opens these pages can read your leads: the site is not claimed yet.</strong>{' '}
        {claim.here ? (
          <a href="/claim" className="font-semibold text-green-900 underline">
            Claim it now
          </a>
        ) : (
          <>
            To claim it, <RunIt claim={claim} />
          </>
        )}
      </p>
    </aside>
  )
}

/** The claim page away from the site's machine: the command that prints the link. */
export function ClaimSteps({ claim }: { claim: ClaimCommand }) {
  return (
    <p className="mt-4 text-lg text-stone-800">
      Whoever claims the site becomes its first owner; from then on everyone signs in. To claim it,{' '}
      <RunIt claim={claim} />
    </p>
  )
}
