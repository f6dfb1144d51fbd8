/**
 * The command and acknowledgement log's search in its URL (/control/log and its CSV export): plant (uid) or a plant
 * name to find, a period of Seoul days (default: the last 30 days), kind, page. Lenient: a stale bookmark shows the
 * default list; a date that is not a date is passed on, and the API's field error is shown.
 */
import { z } from "zod";
import { AUDIT_KINDS } from "../../domain/audit-chain";
import { formatSeoul } from "../../domain/seoul-clock";
import { searchParam } from "~/utils/search-params";
import { parseSearch } from "~/utils/form-action.server";

const Search = z.object({
  find: searchParam.text(100),
  plant: searchParam.text(64),
  start: searchParam.text(10),
  end: searchParam.text(10),
  kind: searchParam.oneOf(AUDIT_KINDS),
  page: searchParam.id(),
});

export const AUDIT_SCREEN_PAGE = 50;

export function auditSearch(request: Request, now = Date.now()) {
  const q = parseSearch(Search, request);
  return {
    find: q.find,
    plant: q.plant,
    start: q.start || formatSeoul(now - 29 * 86_400_000, "YYYY-MM-DD"),
    end: q.end || formatSeoul(now, "YYYY-MM-DD"),
    kind: q.kind,
    page: q.page ?? 1,
  };
}
