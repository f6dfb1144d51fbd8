import { describe, expect, it } from "vitest";
import {
  afterLoadFailure,
  cameraUrlProblem,
  CONNECT_GIVE_UP_MS,
  isStreamFile,
  meetsMotie,
  megapixels,
  splitCredentials,
  withCredentials,
} from "./cctv";

describe("camera rules", () => {
  it("accepts RTSP and HTTP(S) addresses only", () => {
    expect(cameraUrlProblem("rtsp://192.168.0.64:554/Streaming/Channels/101")).toBeNull();
    expect(cameraUrlProblem("https://cam.example.kr/live.ts")).toBeNull();
    expect(cameraUrlProblem("ftp://10.0.0.1/x")).toBe("unsupported_scheme");
    expect(cameraUrlProblem("file:///etc/passwd")).toBe("unsupported_scheme");
    expect(cameraUrlProblem("not a url")).toBe("invalid_url");
  });

  it("keeps credentials apart from the address and puts them back for the converter only", () => {
    const a = splitCredentials("rtsp://admin:p%40ss@10.0.0.5/ch1");
    expect(a).toEqual({ url: "rtsp://10.0.0.5/ch1", username: "admin", password: "p@ss" });
    expect(splitCredentials("rtsp://a:b@10.0.0.5/ch1", "op", "pw")).toMatchObject({ username: "op", password: "pw" });
    expect(withCredentials(a)).toBe("rtsp://admin:p%40ss@10.0.0.5/ch1");
    expect(withCredentials({ url: "rtsp://10.0.0.5/ch1", username: null, password: null })).toBe("rtsp://10.0.0.5/ch1");
  });

  it("MOTIE 2021: at least 2 MP (1920×1080 counts)", () => {
    expect(megapixels(1920, 1080)).toBe(2.1);
    expect(meetsMotie(1920, 1080)).toBe(true);
    expect(meetsMotie(1280, 720)).toBe(false);
    expect(meetsMotie(null, 1080)).toBeNull();
  });

  it("serves only the playlist and numbered segments", () => {
    expect(isStreamFile("index.m3u8")).toBe(true);
    expect(isStreamFile("seg_12.ts")).toBe(true);
    for (const bad of ["../index.m3u8", "seg_1.ts.tmp", "secrets.json", "seg_.ts"]) expect(isStreamFile(bad)).toBe(false);
  });
});

describe("afterLoadFailure (issue 26 point 13: connecting until the first segment, an error only after a real failure)", () => {
  it("a stream the server is still setting up is connecting, not unreachable", () => {
    expect(afterLoadFailure("starting", 3_000)).toBe("connecting");
    expect(afterLoadFailure("idle", 0)).toBe("connecting");
    expect(afterLoadFailure("live", 18_000)).toBe("connecting");
    expect(afterLoadFailure(null, 5_000)).toBe("connecting");
  });

  it("the server's word that the camera failed is shown at once", () => {
    expect(afterLoadFailure("unreachable", 500)).toBe("unreachable");
    expect(afterLoadFailure("ffmpeg_missing", 0)).toBe("ffmpeg_missing");
  });

  it("no picture after the server's own limit is a failure", () => {
    expect(afterLoadFailure("starting", CONNECT_GIVE_UP_MS)).toBe("unreachable");
    expect(afterLoadFailure(null, CONNECT_GIVE_UP_MS + 1)).toBe("unreachable");
  });
});
