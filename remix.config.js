/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/__*"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: ["remix-utils", "remix-auth", "remix-auth-form", /^@visx\//, "pigeon-maps", /^d3-/, "internmap"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: the whole route manifest is one cached file (41 routes), instead of a partial manifest
    // matched on every server render and /__manifest requests on navigation.
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
};
