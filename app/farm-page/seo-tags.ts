import type { MetaDescriptor } from '@remix-run/node'
import type { Seo } from './structured-data'

/** The home page's head: title, description, canonical, OpenGraph and Twitter's card (the JSON-LD is in the body: json-ld.tsx). */
export function seoTags(seo: Seo & { title: string; description: string }): MetaDescriptor[] {
  return [
    { title: seo.title },
    { name: 'description', content: seo.description },
    ...(seo.canonical
      ? [
          { tagName: 'link', rel: 'canonical', href: seo.canonical },
          { property: 'og:url', content: seo.canonical },
        ]
      : []),
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: seo.siteName },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { name: 'twitter:card', content: 'summary' },
    { name: 'twitter:title', content: seo.title },
    { name: 'twitter:description', content: seo.description },
  ]
}
