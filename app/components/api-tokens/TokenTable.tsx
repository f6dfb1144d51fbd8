/**
 * A member's API tokens as a table (their own on /modify/token, a member's on the admin's member screen): name, the
 * secret's first characters, scope, plant limit, rate limits, dates, state in words (not by colour alone) and a
 * revoke button per live token — a plain form, so it works without JavaScript.
 */
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { tokenState, type ApiTokenRow } from "../../../domain/api-tokens";
import { formatSeoul } from "../../../domain/seoul-time";
import { fmt } from "~/i18n";
import { useApiTokensT } from "~/i18n/api-tokens";

export function TokenTable({
  tokens,
  now,
  plantNames,
  canRevoke,
  caption,
  empty,
}: {
  tokens: ApiTokenRow[];
  /** The render time from the loader (so server and browser agree on each token's state). */
  now: number;
  plantNames: Record<string, string>;
  canRevoke: boolean;
  caption: string;
  empty: string;
}) {
  const t = useApiTokensT().apiTokens;
  if (!tokens.length) return <p>{empty}</p>;
  const when = (ms: number | null, none: string) => (ms === null ? none : formatSeoul(ms, "YYYY-MM-DD HH:mm"));
  return (
    <div className="table-wrap">
      <table className="data-table stack-on-phone api-tokens">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.columns.name}</th>
            <th scope="col">{t.columns.hint}</th>
            <th scope="col">{t.columns.scope}</th>
            <th scope="col">{t.columns.plants}</th>
            <th scope="col">{t.columns.limits}</th>
            <th scope="col">{t.columns.created}</th>
            <th scope="col">{t.columns.expires}</th>
            <th scope="col">{t.columns.lastUsed}</th>
            <th scope="col">{t.columns.state}</th>
            {canRevoke ? <th scope="col">{t.columns.action}</th> : null}
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const state = tokenState(token, now);
            return (
              <tr key={token.id} data-token-id={token.id}>
                <th scope="row">{token.name}</th>
                <td data-label={t.columns.hint}>
                  <code>{token.hint}…</code>
                </td>
                <td data-label={t.columns.scope}>{t.scopes[token.scope]}</td>
                <td data-label={t.columns.plants}>
                  {token.plants === null
                    ? t.allPlants
                    : token.plants.map((uid) => plantNames[uid] ?? uid).join(", ") || fmt(t.plantCount, { n: 0 })}
                </td>
                <td data-label={t.columns.limits}>{fmt(t.limitsValue, { perMinute: token.perMinute, perDay: token.perDay })}</td>
                <td data-label={t.columns.created}>{when(token.createdAt, t.never)}</td>
                <td data-label={t.columns.expires}>{when(token.expiresAt, t.never)}</td>
                <td data-label={t.columns.lastUsed}>{when(token.lastUsedAt, t.notUsed)}</td>
                <td className={`token-state token-${state}`} data-label={t.columns.state}>
                  {t.states[state]}
                  {state === "revoked" && token.revokedBy ? (
                    <span className="hint"> {fmt(t.revokedBy, { who: token.revokedBy })}</span>
                  ) : null}
                </td>
                {canRevoke ? (
                  <td data-label={t.columns.action}>
                    {state === "active" ? (
                      <Form method="post">
                        <AuthenticityTokenInput />
                        <input type="hidden" name="id" value={token.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="revokeToken"
                          className="danger"
                          aria-label={fmt(t.revokeLabel, { name: token.name })}
                        >
                          {t.revoke}
                        </button>
                      </Form>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
