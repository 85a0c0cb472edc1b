import type { LoaderFunctionArgs } from '@remix-run/node'
import { jsonError } from '#app/http/json.server'
import { requireMethod } from '#app/http/require-method.server'
import { siteAddress } from '#app/farm-page/site-address'

/** The one page to index: the home page at PUBLIC_URL, changed when its words were last published. */
export function loader({ request, context }: LoaderFunctionArgs) {
  requireMethod(request, ['GET', 'HEAD'])
  const site = siteAddress(context.settings.config.push.siteUrl)
  if (!site) throw jsonError(404, 'No sitemap until PUBLIC_URL says where the site is.')
  const published = context.farmPage.versions().published
  const lastModified = published ? `<lastmod>${new Date(published.changedAt).toISOString()}</lastmod>` : ''
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    `<url><loc>${site}/</loc>${lastModified}</url>`,
    '</urlset>',
    '',
  ]
  return new Response(xml.join('\n'), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
