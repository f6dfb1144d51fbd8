/** Operation totals and warning totals per device category (SPEC §4 selecting a tree node). */
import { DEVICE_CATEGORIES, type OperationTotals, type WarningTotals } from "../../../domain/operation-totals";
import { useT } from "~/i18n";
import { scrollRegion } from "~/components/scroll-region";

const OP_KEYS = ["total", "normal", "breaking", "generating", "stopped"] as const;

export function OperationTable({ op, caption }: { op: OperationTotals; caption: string }) {
  const t = useT();
  return (
    <div {...scrollRegion(caption)}>
      <table className="data-table totals-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <td />
            {OP_KEYS.map((k) => (
              <th scope="col" key={k} className="num">
                {t.watch.op[k]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {DEVICE_CATEGORIES.map((c) => (
            <tr key={c}>
              <th scope="row">{t.watch.categories[c]}</th>
              {OP_KEYS.map((k) => (
                <td key={k} className={`num${k === "breaking" && op[c][k] > 0 ? " text-danger strong" : ""}`}>
                  {op[c][k]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function WarningTable({ warn, caption }: { warn: WarningTotals; caption: string }) {
  const t = useT();
  const levels = [1, 2, 3, 4] as const;
  return (
    <div {...scrollRegion(caption)}>
      <table className="data-table totals-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <td />
            {levels.map((l) => (
              <th scope="col" key={l} className="num">
                <span className={`level-badge level-${l}`}>{t.watch.levels[`l${l}`]}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {DEVICE_CATEGORIES.map((c) => (
            <tr key={c}>
              <th scope="row">{t.watch.categories[c]}</th>
              {levels.map((l) => (
                <td key={l} className={`num${warn[c][l - 1]! > 0 ? " strong" : ""}`}>
                  {warn[c][l - 1]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
