// Issue 13 point 8: one vocabulary. Every screen's catalogue part names plant statuses and alarm codes with the
// words of domain/status-words.ts (through app/i18n/status.ts), in both languages, and no other source file
// spells one of those names (or one of the old variants) itself.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { STATUS_WORDS, categoryWord, plantStatusWord, type WordLocale } from "../../domain/status-words";
import { STATUS_CATEGORIES } from "../../domain/status";
import { statusLabel, alarmCodeLabel } from "../components/status/labels";
import { adminEn } from "./admin-en";
import { adminKo } from "./admin-ko";
import { en } from "./en";
import { ko, type Messages } from "./ko";

const ROOT = join(__dirname, "..", "..");

/** Every spelling a status or alarm-code name has had on some screen (issue 13.8), and the chosen ones. */
const NAMES = [
  "설비 통신 장애",
  "장비 통신 장애",
  "장비 통신 이상",
  "금일 발전량 이상",
  "당일 발전 이상",
  "인터넷 끊김",
  "인터넷 연결 끊김",
  "경고(전체)",
  "경고 (전체)",
  "경고 전체",
  "인버터 고장",
  "미가동",
  "미작동",
  "Equipment comm",
  "Equipment communication fault",
  "Device communication fault",
  "Communication fault with the equipment",
  "Internet down",
  "Internet disconnected",
  "Abnormal generation",
  "Abnormal today's generation",
  "Warning (all)",
  "All warnings",
  "Inverter fault",
];

/** The one source, and files that are not catalogues or code (tests name the words to check them). */
const ALLOWED = new Set(["domain/status-words.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) return name === "node_modules" ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

describe("one vocabulary for status and alarm names (issue 13.8)", () => {
  it("no catalogue part, route, component, API or domain file spells a status or alarm name but the one source", () => {
    const offenders: string[] = [];
    for (const file of [...sourceFiles("app"), ...sourceFiles("api"), ...sourceFiles("domain")]) {
      if (ALLOWED.has(file)) continue;
      // Comments may name a thing ("Inverter fault register bits"); texts may not.
      const text = readFileSync(join(ROOT, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      for (const name of NAMES) if (text.includes(name)) offenders.push(`${relative(ROOT, join(ROOT, file))}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });

  it("the help articles use the same words (no old variant)", () => {
    const variants = [
      "설비 통신 장애",
      "장비 통신 이상",
      "당일 발전 이상",
      "인터넷 끊김",
      "경고(전체)",
      "경고 (전체)",
      "미가동",
      "Equipment comm",
      "Equipment communication fault",
      "Device communication fault",
      "Internet down",
      "Abnormal generation today",
      "Warning (all)",
    ];
    const offenders: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(join(ROOT, dir)).flatMap((n) =>
        statSync(join(ROOT, dir, n)).isDirectory() ? walk(`${dir}/${n}`) : n.endsWith(".md") ? [`${dir}/${n}`] : [],
      );
    for (const file of walk("help")) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const v of variants) if (text.includes(v)) offenders.push(`${file}: ${v}`);
    }
    expect(offenders).toEqual([]);
    expect(readFileSync(join(ROOT, "help/ko/alarm-codes.md"), "utf8")).toContain(`### 1000001 ${STATUS_WORDS.ko.codes[1000001]}`);
    expect(readFileSync(join(ROOT, "help/en/alarm-codes.md"), "utf8")).toContain(`### 1000004 ${STATUS_WORDS.en.codes[1000004]}`);
  });

  const catalogues: [WordLocale, Messages, typeof adminKo][] = [
    ["ko", ko, adminKo],
    ["en", en, adminEn as typeof adminKo],
  ];

  it.each(catalogues)("every screen's part uses the one map (%s)", (locale, core, admin) => {
    const w = STATUS_WORDS[locale];
    const codes = {
      c1000001: w.codes[1000001],
      c1000003: w.codes[1000003],
      c1000004: w.codes[1000004],
      c1000006: w.codes[1000006],
    };
    // The main page's counts, the /pvstatus filters and the admin plant list's filter: categories.
    for (const c of STATUS_CATEGORIES) {
      expect(core.main.status[c], `main.status.${c}`).toBe(categoryWord(locale, c));
      expect(core.pvstatus.filters[c], `pvstatus.filters.${c}`).toBe(categoryWord(locale, c));
      expect(admin.fleet.status[c], `fleet.status.${c}`).toBe(categoryWord(locale, c));
    }
    // Alarm names: main page, alarm screen and export (main.codes), cards' fault tooltips (pvstatus.alarmCodes).
    expect(core.main.codes).toMatchObject(codes);
    expect(core.pvstatus.alarmCodes).toMatchObject(codes);
    // A plant's own status (cards, map markers): 'warning' is the internet disconnection.
    expect(core.pvstatus.statusNames).toMatchObject({
      none: w.noData,
      normal: w.normal,
      notWork: w.notWork,
      warning: w.codes[1000003],
      warning_1000001: w.codes[1000001],
      warning_1000004: w.codes[1000004],
      warning_1000006: w.codes[1000006],
    });
    expect(core.pvstatus.indicator.not).toBe(w.notWork);
    // Hours: one unit on the cards and the detail window.
    expect(core.pvstatus.card.hours).toBe(w.hours);
    expect(core.detail.hours).toBe(`{hours} ${w.hours}`);
  });

  it.each(catalogues)("a plant's status names its own warning, never 'all warnings' (%s)", (locale, core) => {
    const w = STATUS_WORDS[locale];
    expect(statusLabel(core, 3)).toBe(w.codes[1000003]);
    expect(plantStatusWord(locale, 3)).toBe(w.codes[1000003]);
    for (let status = 0; status <= 6; status++) {
      expect(plantStatusWord(locale, status)).not.toBe(w.allWarnings);
      if (status > 0) expect(statusLabel(core, status)).toBe(plantStatusWord(locale, status));
    }
    expect(alarmCodeLabel(core, 1000001)).toBe(w.codes[1000001]);
  });
});
