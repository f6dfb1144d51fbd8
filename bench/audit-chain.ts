/**
 * The tamper-evident command and acknowledgement log (issue 29 §1): prints figures (record them in bench/README.md).
 *   npx tsx bench/audit-chain.ts [entries] [database url]
 * Appends `entries` (default 10,000) one transaction each, as a command's or an acknowledgement's write does (the
 * append's own cost with its commit; on PostgreSQL the advisory lock too), then walks the whole chain once
 * (api/store/audit-chain.ts verifyAuditChain, what GET /api/audit/verify and /control/log do on every load).
 * Default store: a fresh SQLite file under the OS temp directory; give a postgres:// URL of an empty database.
 */
import os from "node:os";
import path from "node:path";
import { appendAudit, verifyAuditChain } from "../api/store/audit-chain";
import { openStore } from "../api/store/db";

void (async () => {
  const n = Number(process.argv[2] ?? 10_000);
  const url = process.argv[3] ?? `file:${path.join(os.tmpdir(), `audit-bench-${Date.now()}.db`)}`;
  const store = await openStore(url);
  let t = performance.now();
  for (let i = 0; i < n; i++)
    await store.db.transaction().execute((trx) =>
      appendAudit(trx, store.dialect, {
        at: Date.now(),
        kind: "command",
        plant_uid: "P1",
        ref_seq: i,
        member_id: "m",
        detail: { action: "off", i },
      }),
    );
  const appendMs = performance.now() - t;
  t = performance.now();
  const v = await verifyAuditChain(store.db);
  const verifyMs = performance.now() - t;
  console.log(
    JSON.stringify({
      dialect: store.dialect,
      entries: n,
      appendPerEntryMs: +(appendMs / n).toFixed(3),
      verifyMs: Math.round(verifyMs),
      intact: v.intact,
    }),
  );
  await store.close();
})();
