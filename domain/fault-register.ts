// Inverter fault registers (SPEC §7 /measurement/statusinfo/detail, /measurement/fault/codes): a register
// value may carry several bits; each set bit is one code of the fault-code table (code = 1 << bit).

export interface FaultCodeRow {
  code: number;
  hex: string;
  name_ko: string;
  name_en: string;
  level: number;
}

/** '0x0088', '0088' or '136' → 136; null when it is not a register value. */
export function parseFaultHex(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const s = text.trim();
  const m = /^(?:0x)?([0-9a-f]{1,8})$/i.exec(s);
  if (!m) return null;
  const v = /^0x/i.test(s) || /[a-f]/i.test(s) || s.length === 4 ? parseInt(m[1]!, 16) : parseInt(m[1]!, 10);
  return Number.isSafeInteger(v) ? v : null;
}

/**
 * The table rows a register value stands for: an exact code first (a table may list a combined value of
 * its own), else every set bit that the table knows. Unknown bits come back as a row without names, so a
 * fault is never silently dropped.
 */
export function decodeFaultRegister(value: number, table: readonly FaultCodeRow[]): FaultCodeRow[] {
  if (!Number.isInteger(value) || value <= 0) return [];
  const exact = table.find((r) => r.code === value);
  if (exact) return [exact];
  const out: FaultCodeRow[] = [];
  for (let bit = 0; bit < 32; bit++) {
    const code = 2 ** bit;
    if (code > value) break;
    if (Math.floor(value / code) % 2 !== 1) continue;
    out.push(
      table.find((r) => r.code === code) ?? {
        code,
        hex: `0x${code.toString(16).toUpperCase().padStart(4, "0")}`,
        name_ko: "",
        name_en: "",
        level: 3,
      },
    );
  }
  return out;
}
