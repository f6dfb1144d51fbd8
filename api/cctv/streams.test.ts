import { describe, expect, it } from "vitest";
import { CameraStreams, CameraUnavailable, hlsArgs, inputArgs, parseVideoStream } from "./streams";

describe("camera streams", () => {
  it("says ffmpeg_missing when there is no ffmpeg, and refuses to open or snapshot", async () => {
    const s = new CameraStreams({ ffmpegPath: "/nonexistent/ffmpeg", idleMs: 1_000 });
    expect(s.status("CAM1").state).toBe("ffmpeg_missing");
    await expect(s.open({ uid: "CAM1", url: "rtsp://127.0.0.1/x" })).rejects.toMatchObject({ state: "ffmpeg_missing" });
    await expect(s.snapshot({ uid: "CAM1", url: "rtsp://127.0.0.1/x" })).rejects.toBeInstanceOf(CameraUnavailable);
    expect(s.running()).toEqual([]);
  });

  it("pulls RTSP over TCP, copies H.264 and transcodes anything else", () => {
    expect(inputArgs("rtsp://cam/1")).toEqual(expect.arrayContaining(["-rtsp_transport", "tcp"]));
    expect(inputArgs("http://cam/1.ts")).not.toContain("-rtsp_transport");
    // An HTTP camera is not followed elsewhere: no redirect, no playlist demuxer; a pinned name goes in Host.
    const http = inputArgs("http://203.0.113.5:8080/1.ts", "cam.example:8080");
    expect(http).toEqual(expect.arrayContaining(["-max_redirects", "0", "-headers", "Host: cam.example:8080\r\n"]));
    expect(http[http.indexOf("-format_whitelist") + 1]).not.toContain("hls");
    expect(hlsArgs({ url: "rtsp://cam/1" }, "h264", "/tmp/x")).toEqual(expect.arrayContaining(["-c:v", "copy", "-f", "hls"]));
    expect(hlsArgs({ url: "rtsp://cam/1" }, "hevc", "/tmp/x")).toEqual(expect.arrayContaining(["-c:v", "libx264"]));
  });

  it("reads the video's codec and size from ffmpeg's description", () => {
    const line =
      "  Stream #0:0[0x100]: Video: h264 (Constrained Baseline) ([27][0][0][0] / 0x001B), yuv420p(progressive), 1920x1080 [SAR 1:1 DAR 16:9], 5 fps";
    expect(parseVideoStream(`Input #0, mpegts\n${line}\n`)).toEqual({ codec: "h264", width: 1920, height: 1080 });
    expect(parseVideoStream("Stream #0:1: Audio: aac, 48000 Hz")).toBeNull();
  });
});
