import type { LoaderFunctionArgs } from '@remix-run/node'

const icons = [192, 512].flatMap((size) => [
  { src: `/icons/icon-${size}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' },
  { src: `/icons/maskable-${size}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'maskable' },
])

/** The web app manifest: the inbox installs on the owner's phone as the farm's own app, opening at /farm-sales. */
export function loader({ context }: LoaderFunctionArgs) {
  const name = context.farm.name
  return new Response(
    JSON.stringify({
      id: '/farm-sales',
      name,
      short_name: name.length <= 12 ? name : 'Farm inbox',
      description: `${name}: leads from the website, newest first.`,
      start_url: '/farm-sales',
      scope: '/',
      display: 'standalone',
      background_color: '#fffbeb',
      theme_color: '#166534',
      icons,
    }),
    { headers: { 'Content-Type': 'application/manifest+json', 'Cache-Control': 'public, max-age=3600' } },
  )
}
