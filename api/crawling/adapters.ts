/**
 * The adapter for a source's site. Kept apart from adapter.ts (the interface, the offer schemas and
 * SourceError) so that the adapters import the interface and nothing imports back: no import cycle.
 */
import { SourceError, type CrawlAdapter, type SourceLogin } from "./adapter";
import { sourceBudget, type SourceBudget } from "./budget";
import { PortalAdapter } from "./portal-adapter";

export function adapterFor(login: SourceLogin, budget: SourceBudget = sourceBudget): CrawlAdapter {
  switch (login.site) {
    case "portal":
      return new PortalAdapter(login.baseUrl, login.id, login.password, budget);
    default:
      throw new SourceError("bad_answer", `unknown site ${login.site}`);
  }
}
