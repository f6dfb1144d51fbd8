import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { OVERLAY_TZ } from "./test-pattern";

describe("the test pattern's overlay clock (issue 26 point 13)", () => {
  it("is in KST, the portal's time, whatever the server's zone: the zone the ffmpeg process gets reads UTC+9", () => {
    // ffmpeg's drawtext %{localtime} formats with the C library's localtime, as `date` does under the same TZ.
    const before = Date.now();
    const hhmm = execFileSync("date", ["+%H%M"], { env: { ...process.env, TZ: OVERLAY_TZ } })
      .toString()
      .trim();
    const kst = (ts: number) => new Date(ts + 9 * 3_600_000).toISOString().slice(11, 16).replace(":", "");
    expect([kst(before), kst(Date.now())]).toContain(hhmm);
  });
});
