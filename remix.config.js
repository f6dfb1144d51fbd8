/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/__*"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: ["remix-utils", "remix-auth", "remix-auth-form", /^@visx\//, "pigeon-maps", /^d3-/, "internmap"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // A page's document names only the routes it can reach from its links; others are asked for (/__manifest)
    // when a navigation needs them.
    v3_lazyRouteDiscovery: true,
    // Off: a wallboard's poll is answered 304 by entry.server.tsx's handleDataRequest (an ETag of the loader's
    // JSON), which single fetch does not call; its turbo-stream answers cover every loader of a page at once.
    v3_singleFetch: false,
  },
};
