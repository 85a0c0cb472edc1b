import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireMethod } from '#app/http/require-method.server'
import { siteAddress } from '#app/farm-page/site-address'

/** What crawlers may read: the home page; never the owner's pages, the API or a person's links. */
export function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  const site = siteAddress(context.settings.config.push.siteUrl)
  const lines = [
    'User-agent: *',
    'Disallow: /farm-sales',
    'Disallow: /api/',
    'Disallow: /sign-in',
    'Disallow: /sign-out',
    'Disallow: /claim',
    'Disallow: /join/',
    'Disallow: /set-up/',
    'Disallow: /updates/',
    ...(site ? ['', `Sitemap: ${site}/sitemap.xml`] : []),
    '',
  ]
  return new Response(lines.join('\n'), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
