import { join } from 'node:path'
import { languageScripts, routeScripts } from './bench/route-scripts'
import { languages } from './app/language/languages'
for (const [name, root] of [['base fcab6c5', '/work/wt-language-base'], ['language', '/work/wt-language']]) {
  const home = routeScripts(join(root, 'public/build'), 'routes/_index')
  console.log(name, 'home JS gz KB', home.kb.toFixed(2), 'files', home.files.size)
  if (name === 'language') for (const l of languages) console.log('  ', l, (home.kb + languageScripts(join(root, 'public/build'), l, home.files).kb).toFixed(2), 'chunk', languageScripts(join(root, 'public/build'), l, home.files).kb.toFixed(2))
}
