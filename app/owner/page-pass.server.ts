import type { AppLoadContext } from '@remix-run/node'
import type { PageVisit } from './site-names.server'

/**
 * Who a page is shown to, as the owner guard would answer, without refusing or logging: a
 * signed-in member (or anyone, on the site's own names, while the inbox is open), else null for a
 * visitor. The root's header and the home page's kept copy (decision 043) read it alike.
 */
export async function pagePassFor(request: PageVisit, context: Pick<AppLoadContext, 'siteNames' | 'owner'>) {
  return context.siteNames.opens(context.siteNames.namesOf(request))
    ? await context.owner.passFor(request.headers.get('Cookie'))
    : null
}
