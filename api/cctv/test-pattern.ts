/**
 * A camera on loopback for the demo fleet and the tests: an HTTP server whose every connection gets a live
 * H.264 test pattern (ffmpeg's testsrc2 with a running clock) as MPEG-TS, made by an ffmpeg process of its own
 * that ends when the connection does. Any program that reads a camera's HTTP stream reads this one; the
 * camera streams of api/cctv/streams.ts pull it exactly as they pull a real camera.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface TestPatternOptions {
  ffmpegPath: string;
  width?: number;
  height?: number;
  fps?: number;
  /** Port on 127.0.0.1; 0 picks a free one. */
  port?: number;
}

export interface TestPattern {
  /** The camera's address, e.g. http://127.0.0.1:41234/camera.ts */
  url: string;
  /** Connections being served now. */
  clients(): number;
  close(): Promise<void>;
}

/** The overlay clock's zone: Korea Standard Time, UTC+9 (POSIX TZ writes the offset west of UTC, hence −9). */
export const OVERLAY_TZ = "KST-9";

export async function startTestPattern(opts: TestPatternOptions): Promise<TestPattern> {
  const { width = 1920, height = 1080, fps = 10 } = opts;
  const procs = new Set<ChildProcess>();
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" || !req.url?.startsWith("/camera.ts")) {
      res.writeHead(404).end();
      return;
    }
    const proc = spawn(
      opts.ffmpegPath,
      [
        "-hide_banner",
        "-nostdin",
        "-loglevel",
        "error",
        "-re",
        "-f",
        "lavfi",
        "-i",
        `testsrc2=size=${width}x${height}:rate=${fps}`,
        "-vf",
        "drawtext=text='%{localtime} KST':x=20:y=20:fontsize=h/20:fontcolor=white:box=1:boxcolor=black@0.6",
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-tune",
        "zerolatency",
        "-pix_fmt",
        "yuv420p",
        "-g",
        String(fps * 2),
        "-f",
        "mpegts",
        "pipe:1",
      ],
      // The overlay clock in the portal's time (issue 26 point 13: it read UTC on a UTC server while every screen
      // shows KST). A POSIX zone needs no tz database on the machine; Korea keeps no daylight saving time.
      { stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, TZ: OVERLAY_TZ } },
    );
    procs.add(proc);
    res.writeHead(200, { "Content-Type": "video/mp2t", "Cache-Control": "no-store" });
    proc.stdout!.pipe(res);
    const end = () => {
      if (proc.exitCode === null) proc.kill("SIGKILL");
    };
    res.on("close", end);
    proc.on("exit", () => {
      procs.delete(proc);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/camera.ts`,
    clients: () => procs.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const p of procs) p.kill("SIGKILL");
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
