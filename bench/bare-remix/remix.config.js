// The bare Remix page `npm run bench` scores beside the site: the same Remix, React and
// compiler, one route, nothing else. Built into bench/bare-remix/build by the bench.
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: 'esm',
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
  },
}
