import ExcelJS from "exceljs";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { XlsxWriter } from "./xlsx-stream";

/** A destination that takes its time: every write completes a tick later, with a tiny buffer. */
function slowSink() {
  const chunks: Buffer[] = [];
  let most = 0;
  let queued = 0;
  const sink = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _e, cb) {
      queued += chunk.length;
      most = Math.max(most, sink.writableLength);
      setImmediate(() => {
        chunks.push(chunk);
        queued -= chunk.length;
        cb();
      });
    },
  });
  return { sink, body: () => Buffer.concat(chunks), most: () => most, queued: () => queued };
}

describe("streaming XLSX writer", () => {
  it("writes sheets in any order that exceljs reads back cell by cell, in book order", async () => {
    const out = slowSink();
    const book = new XlsxWriter(out.sink, { creator: "tester", created: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) });
    const steps = await book.sheet("시간별", 3, [
      { head: "시간", width: 18 },
      { head: "이름 <&>", width: 20 },
      { head: "발전량 (kWh)", width: 14, decimals: 2 },
    ]);
    for (let i = 0; i < 3000; i++) {
      const wait = steps.add([
        `2026-01-01 ${String(i % 24).padStart(2, "0")}:00`,
        i % 2 ? " =1+2 인버터" : "a\u0001b",
        i % 7 ? i / 8 : null,
      ]);
      if (wait) await wait;
      // The writer waits for the slow destination: it never holds more than a few buffers.
      expect(out.queued()).toBeLessThan(512 * 1024);
    }
    await steps.end();
    const summary = await book.sheet("요약", 1, [
      { head: "항목", width: 30 },
      { head: "값", width: 20 },
    ]);
    await summary.add(["범위", "발전소 1"]);
    await summary.add(["발전량", 12.5]);
    // An empty cell before a filled one: the filled cell names its reference (the others leave it out).
    await summary.add([null, 7]);
    await summary.end();
    await book.finish();

    const read = new ExcelJS.Workbook();
    await read.xlsx.load(out.body() as never);
    expect(read.worksheets.map((s) => s.name)).toEqual(["요약", "시간별"]);
    expect(read.creator).toBe("tester");
    const rows = read.getWorksheet("시간별")!;
    expect(rows.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(rows.getRow(1).values).toEqual([undefined, "시간", "이름 <&>", "발전량 (kWh)"]);
    expect(rows.getRow(1).font?.bold ?? rows.getCell("A1").font?.bold).toBe(true);
    expect(rows.rowCount).toBe(3001);
    expect(rows.getCell("A2").value).toBe("2026-01-01 00:00");
    expect(rows.getCell("B2").value).toBe("ab");
    expect(rows.getCell("B3").value).toBe(" =1+2 인버터");
    expect(rows.getCell("C2").value).toBeNull();
    expect(rows.getCell("C3").value).toBe(1 / 8);
    expect(rows.getCell("C3").numFmt).toBe("#,##0.00");
    expect(rows.getColumn(2).width).toBe(20);
    const sum = read.getWorksheet("요약")!;
    expect(sum.getCell("A2").value).toBe("범위");
    expect(sum.getCell("B3").value).toBe(12.5);
    expect(sum.getCell("A4").value).toBeNull();
    expect(sum.getCell("B4").value).toBe(7);
    expect(rows.getCell("C9").value).toBeNull();
    expect(rows.getCell("C10").value).toBe(8 / 8);
  });

  it("writes every finite number so that it reads back as the same number", async () => {
    const values = [
      0,
      -0,
      1,
      -1,
      7,
      10,
      1234567,
      2 ** 53 - 1,
      1e15,
      1e21,
      -2.5e-7,
      0.1,
      0.1 + 0.2,
      -0.05,
      12.5,
      123.456,
      1 / 8,
      1 / 3,
      999999.999999,
      4.35,
      1.005,
      0.000001,
      1e-7,
      123456789.123,
      1234567890.5,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      ...Array.from({ length: 200 }, (_v, i) => Math.round((i * 7919.37) % 100000) / 100 - 300),
    ];
    const out = slowSink();
    const book = new XlsxWriter(out.sink, { creator: "tester", created: new Date(0) });
    const sheet = await book.sheet("n", 1, [{ head: "v", width: 10, decimals: 2 }]);
    for (const v of values) await sheet.add([v]);
    await sheet.end();
    await book.finish();
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(out.body() as never);
    const ws = read.getWorksheet("n")!;
    const back = values.map((_v, i) => ws.getCell(`A${i + 2}`).value);
    expect(back).toEqual(values.map((v) => (Object.is(v, -0) ? 0 : v)));
  });
});
