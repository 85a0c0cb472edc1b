import { Link } from '@remix-run/react'

/**
 * What a person of the team is told of each new lead, by mail and on their phones. Nothing is
 * ticked that cannot work yet: without mail (or push), the box says how it is turned on, and the
 * choice made is kept for then.
 */
export function NotifyChoices({
  mine,
  mailOn,
  pushOn,
  owner,
}: {
  mine: { email: string | null; mailNewLeads: boolean; pushNewLeads: boolean }
  mailOn: boolean
  pushOn: boolean
  /** An owner is sent to the settings; a helper is told an owner sets it up. */
  owner: boolean
}) {
  return (
    <>
      {mailOn ? (
        <p className="mt-4 flex items-center gap-2">
          <input id="mail" name="mail" type="checkbox" defaultChecked={mine.mailNewLeads} className="h-4 w-4" />
          <label htmlFor="mail" className="text-stone-800">
            Mail me about each new lead
            {mine.email ? '' : ' (at the farm’s notification address, until you give yours)'}
          </label>
        </p>
      ) : (
        <p className="mt-4 flex items-start gap-2">
          {/* Kept as it was chosen, for when mail is set up. */}
          {mine.mailNewLeads ? <input type="hidden" name="mail" value="on" /> : null}
          <input id="mail" type="checkbox" checked={false} disabled readOnly className="mt-1 h-4 w-4" />
          <label htmlFor="mail" className="text-stone-600">
            Mail me about each new lead: not yet, the site cannot send mail.{' '}
            {owner ? (
              <Link to="/farm-sales/settings#mail" className="font-semibold text-green-800 underline">
                Set up mail in Settings
              </Link>
            ) : (
              'An owner sets up mail in Settings.'
            )}
          </label>
        </p>
      )}
      {pushOn ? (
        <p className="mt-2 flex items-center gap-2">
          <input id="push" name="push" type="checkbox" defaultChecked={mine.pushNewLeads} className="h-4 w-4" />
          <label htmlFor="push" className="text-stone-800">
            Notify my phones of each new lead
          </label>
        </p>
      ) : (
        <p className="mt-2 flex items-start gap-2">
          {mine.pushNewLeads ? <input type="hidden" name="push" value="on" /> : null}
          <input id="push" type="checkbox" checked={false} disabled readOnly className="mt-1 h-4 w-4" />
          <label htmlFor="push" className="text-stone-600">
            Notify my phones of each new lead: not yet, the site cannot notify phones.{' '}
            {owner ? (
              <Link to="/farm-sales/settings#phone" className="font-semibold text-green-800 underline">
                Set it up in Settings
              </Link>
            ) : (
              'An owner sets it up in Settings.'
            )}
          </label>
        </p>
      )}
    </>
  )
}
