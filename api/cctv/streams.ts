/**
 * On-demand camera streams (SPEC §7 GET /cctv/url): per camera at most one ffmpeg process pulls the camera
 * (RTSP over TCP, or an HTTP stream), copies H.264 (transcodes anything else) and writes an HLS playlist with
 * a few two-second segments into a private temporary folder. Every viewer of the camera reads the same files;
 * each read counts as watching, and a process nobody has read from for `idleMs` is stopped and its folder
 * removed. A camera that does not answer is reported as unreachable (with ffmpeg's own words) and tried again
 * at the next request after a short pause; a server without ffmpeg reports ffmpeg_missing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { CameraState } from "../../domain/contract/cctv";
import { isStreamFile } from "../../domain/cctv";
import { pinnedUrl, type OutboundAddressRule } from "../net/outbound-address";

export interface CameraSource {
  uid: string;
  /** The address with its credentials (never leaves this process but to ffmpeg). */
  url: string;
  /** The Host header of an HTTP source whose name was replaced by its checked address (`pin`). */
  hostHeader?: string;
}

export interface StreamStatus {
  state: CameraState;
  width: number | null;
  height: number | null;
  error: string | null;
}

export class CameraUnavailable extends Error {
  constructor(
    public state: "unreachable" | "ffmpeg_missing" | "refused",
    public detail: string | null,
  ) {
    super(state);
  }
}

export interface StreamOptions {
  /** Debian's /usr/bin/ffmpeg, or FFMPEG_PATH. */
  ffmpegPath: string;
  /** A stream nobody reads from for this long is stopped. */
  idleMs: number;
  /** A camera that failed is not tried again before this (requests meanwhile get the failure). */
  retryMs?: number;
  log?: (msg: string) => void;
  /** Called with the resolution each time a camera is looked at (to keep it in the store). */
  onProbe?: (uid: string, width: number, height: number) => void;
  /**
   * Checks a source's address right before each ffmpeg start (api/net/outbound-address.ts) and answers the source
   * to connect to: its host replaced by the address checked, so a name that resolves elsewhere by now is refused
   * and ffmpeg cannot resolve it again. Throws CameraUnavailable("refused", reason) for an address not allowed.
   */
  pin?: (source: CameraSource) => Promise<CameraSource>;
}

interface Stream {
  uid: string;
  dir: string;
  proc: ChildProcess | null;
  state: "starting" | "live" | "unreachable";
  ready: Promise<void>;
  lastRead: number;
  width: number | null;
  height: number | null;
  error: string | null;
  failedAt: number;
  stopping: boolean;
  /** The failure was the outbound-address rule's refusal, not the camera's silence. */
  refused?: boolean;
}

const PROBE_TIMEOUT_MS = 15_000;
const FIRST_SEGMENT_TIMEOUT_MS = 20_000;
const SNAPSHOT_CACHE_MS = 5_000;
/** How long a failure is shown after the attempt. */
const FAILURE_SHOWN_MS = 5 * 60_000;

/** Demuxers an HTTP camera may use: streams, not playlists or lists of further URLs (HLS, concat …). */
const HTTP_FORMATS = "mpegts,mjpeg,mpjpeg,h264,hevc,flv,matroska,webm";

/**
 * Input options: RTSP is pulled over TCP (no UDP through firewalls); every source gets a 10 s I/O timeout. An HTTP
 * source is not followed elsewhere: no redirect, and no demuxer that opens further URLs (an HLS playlist naming
 * segments on loopback would reach past the address check).
 */
export function inputArgs(url: string, hostHeader?: string): string[] {
  const scheme = url.slice(0, url.indexOf(":")).toLowerCase();
  // One second of looking at the stream is enough to know a camera's video (the default, 5 s, delays the picture).
  const probe = ["-analyzeduration", "1000000", "-probesize", "1000000"];
  if (scheme === "rtsp" || scheme === "rtsps") return [...probe, "-rtsp_transport", "tcp", "-timeout", "10000000", "-i", url];
  const host = hostHeader ? ["-headers", `Host: ${hostHeader}\r\n`] : [];
  return [
    ...probe,
    "-rw_timeout",
    "10000000",
    "-max_redirects",
    "0",
    "-format_whitelist",
    HTTP_FORMATS,
    "-protocol_whitelist",
    "http,https,tcp,tls",
    ...host,
    "-i",
    url,
  ];
}

/** The ffmpeg arguments that turn a camera into HLS in `dir`: H.264 copied, anything else transcoded. */
export function hlsArgs(source: Pick<CameraSource, "url" | "hostHeader">, codec: string, dir: string): string[] {
  const video =
    codec === "h264"
      ? ["-c:v", "copy"]
      : [
          "-c:v",
          "libx264",
          "-preset",
          "veryfast",
          "-tune",
          "zerolatency",
          "-pix_fmt",
          "yuv420p",
          "-force_key_frames",
          "expr:gte(t,n_forced*2)",
        ];
  return [
    "-hide_banner",
    "-nostdin",
    "-loglevel",
    "error",
    ...inputArgs(source.url, source.hostHeader),
    "-map",
    "0:v:0",
    "-an",
    "-sn",
    "-dn",
    ...video,
    "-f",
    "hls",
    "-hls_time",
    "2",
    "-hls_list_size",
    "6",
    "-hls_flags",
    "delete_segments+omit_endlist+temp_file",
    "-hls_segment_filename",
    path.join(dir, "seg_%d.ts"),
    path.join(dir, "index.m3u8"),
  ];
}

/** The video stream's codec and size from ffmpeg's description of its input, or null. */
export function parseVideoStream(stderr: string): { codec: string; width: number; height: number } | null {
  const m = /Stream #\d+:\d+[^\n]*?: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})/.exec(stderr);
  return m ? { codec: m[1]!, width: Number(m[2]), height: Number(m[3]) } : null;
}

/** The last meaningful line ffmpeg wrote, without the address (which may hold credentials). */
function lastWords(stderr: string, url: string): string | null {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.at(-1);
  if (!line) return null;
  let clean = line.split(url).join("<camera>");
  clean = clean.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi, "<camera>");
  return clean.slice(0, 200);
}

export class CameraStreams {
  private streams = new Map<string, Stream>();
  private snapshots = new Map<string, { at: number; jpeg: Promise<Buffer> }>();
  private root: string | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  private ffmpegCheckedAt = 0;
  private ffmpegPresent = false;

  constructor(private opts: StreamOptions) {}

  /** Whether the ffmpeg binary is there and executable (looked at again at most every 30 s). */
  ffmpegAvailable(): boolean {
    const now = Date.now();
    if (now - this.ffmpegCheckedAt > 30_000) {
      this.ffmpegCheckedAt = now;
      try {
        accessSync(this.opts.ffmpegPath, constants.X_OK);
        this.ffmpegPresent = true;
      } catch {
        this.ffmpegPresent = false;
      }
    }
    return this.ffmpegPresent;
  }

  status(uid: string): StreamStatus {
    if (!this.ffmpegAvailable()) return { state: "ffmpeg_missing", width: null, height: null, error: null };
    const s = this.streams.get(uid);
    if (!s) return { state: "idle", width: null, height: null, error: null };
    if (s.state === "unreachable" && Date.now() - s.failedAt > FAILURE_SHOWN_MS)
      return { state: "idle", width: s.width, height: s.height, error: null };
    return { state: s.state, width: s.width, height: s.height, error: s.error };
  }

  /** Processes running now (for tests and the health of the machine). */
  running(): string[] {
    return [...this.streams.values()].filter((s) => s.proc).map((s) => s.uid);
  }

  /**
   * Makes sure the camera's stream runs and its playlist exists; counts as a viewer reading it.
   * Rejects with CameraUnavailable when it cannot.
   */
  async open(source: CameraSource): Promise<void> {
    if (!this.ffmpegAvailable()) throw new CameraUnavailable("ffmpeg_missing", null);
    let s = this.streams.get(source.uid);
    if (s && s.state === "unreachable") {
      if (Date.now() - s.failedAt < (this.opts.retryMs ?? 5_000))
        throw new CameraUnavailable(s.refused ? "refused" : "unreachable", s.error);
      this.streams.delete(source.uid);
      s = undefined;
    }
    if (!s) s = this.start(source);
    s.lastRead = Date.now();
    await s.ready;
  }

  /** Starts the stream without waiting for it (a viewer is about to come). */
  warm(source: CameraSource): void {
    this.open(source).catch(() => undefined);
  }

  /** Path of a file of a running stream for a viewer, or null; reading counts as watching. */
  async file(uid: string, name: string): Promise<string | null> {
    if (!isStreamFile(name)) return null;
    const s = this.streams.get(uid);
    if (!s || s.state !== "live") return null;
    s.lastRead = Date.now();
    const p = path.join(s.dir, name);
    return (await stat(p).catch(() => null))?.isFile() ? p : null;
  }

  /** A still JPEG of the camera: from the newest segment while it streams, else straight from the camera. */
  snapshot(source: CameraSource): Promise<Buffer> {
    if (!this.ffmpegAvailable()) return Promise.reject(new CameraUnavailable("ffmpeg_missing", null));
    const cached = this.snapshots.get(source.uid);
    if (cached && Date.now() - cached.at < SNAPSHOT_CACHE_MS) return cached.jpeg;
    const jpeg = this.takeSnapshot(source);
    this.snapshots.set(source.uid, { at: Date.now(), jpeg });
    jpeg.catch(() => this.snapshots.delete(source.uid));
    return jpeg;
  }

  /** Stops one camera's stream at once (its camera was changed or deleted). */
  close(uid: string): void {
    const s = this.streams.get(uid);
    if (!s) return;
    this.streams.delete(uid);
    this.snapshots.delete(uid);
    this.stop(s);
  }

  /** Stops every process and removes the folders (server shutdown). */
  stopAll(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const s of this.streams.values()) this.stop(s);
    this.streams.clear();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
    this.root = null;
  }

  private rootDir(): string {
    if (!this.root) {
      this.root = mkdtempSync(path.join(os.tmpdir(), "solar-cctv-"));
      // Ends the processes with the server, even when it exits without shutting down.
      process.once("exit", () => this.stopAll());
    }
    if (!this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), Math.max(250, Math.min(5_000, this.opts.idleMs / 4)));
      this.sweeper.unref();
    }
    return this.root;
  }

  private start(source: CameraSource): Stream {
    const dir = path.join(this.rootDir(), `${source.uid}-${Date.now().toString(36)}`);
    const s: Stream = {
      uid: source.uid,
      dir,
      proc: null,
      state: "starting",
      ready: Promise.resolve(),
      lastRead: Date.now(),
      width: null,
      height: null,
      error: null,
      failedAt: 0,
      stopping: false,
    };
    this.streams.set(source.uid, s);
    s.ready = this.run(s, source).catch((e: unknown) => {
      s.state = "unreachable";
      s.failedAt = Date.now();
      s.error = e instanceof CameraUnavailable ? e.detail : (e as Error).message;
      s.refused = e instanceof CameraUnavailable && e.state === "refused";
      this.stop(s);
      this.opts.log?.(`cctv ${s.uid}: ${s.error ?? "unreachable"}`);
      throw new CameraUnavailable(s.refused ? "refused" : "unreachable", s.error);
    });
    s.ready.catch(() => undefined);
    return s;
  }

  /** The source as ffmpeg is to reach it, its address checked now (StreamOptions.pin). */
  private pinned(source: CameraSource): Promise<CameraSource> {
    return this.opts.pin ? this.opts.pin(source) : Promise.resolve(source);
  }

  private async run(s: Stream, unpinned: CameraSource): Promise<void> {
    const source = await this.pinned(unpinned);
    const probe = await this.probe(source);
    s.width = probe.width;
    s.height = probe.height;
    this.opts.onProbe?.(s.uid, probe.width, probe.height);
    if (s.stopping) throw new CameraUnavailable("unreachable", "stopped");
    await mkdir(s.dir, { recursive: true });
    const proc = spawn(this.opts.ffmpegPath, hlsArgs(source, probe.codec, s.dir), { stdio: ["ignore", "ignore", "pipe"] });
    s.proc = proc;
    let stderr = "";
    proc.stderr!.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4_000);
    });
    const exited = new Promise<never>((_, reject) => {
      proc.on("error", (e) => reject(new CameraUnavailable("unreachable", e.message)));
      proc.on("exit", (code, signal) => {
        s.proc = null;
        const why = lastWords(stderr, source.url) ?? `ffmpeg ended (${signal ?? code})`;
        if (!s.stopping && s.state === "live") {
          // The stream broke while people watched: say so, and let the next request try again.
          s.state = "unreachable";
          s.failedAt = Date.now();
          s.error = why;
          this.opts.log?.(`cctv ${s.uid}: stream ended: ${why}`);
          rmSync(s.dir, { recursive: true, force: true });
        }
        reject(new CameraUnavailable("unreachable", why));
      });
    });
    exited.catch(() => undefined);
    const playlist = path.join(s.dir, "index.m3u8");
    const deadline = Date.now() + FIRST_SEGMENT_TIMEOUT_MS;
    for (;;) {
      const text = await readFile(playlist, "utf8").catch(() => "");
      if (/^seg_\d+\.ts$/m.test(text)) break;
      if (Date.now() > deadline) throw new CameraUnavailable("unreachable", "no_video_within_20s");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 200))]);
    }
    s.state = "live";
    // The wait for the first segment does not count against the viewers.
    s.lastRead = Date.now();
  }

  /** Opens the camera once to learn its video codec and size; fails when it does not answer in time. */
  private probe({ url, hostHeader }: CameraSource): Promise<{ codec: string; width: number; height: number }> {
    return new Promise((resolve, reject) => {
      const proc = spawn(this.opts.ffmpegPath, ["-hide_banner", "-nostdin", ...inputArgs(url, hostHeader)], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      const timer = setTimeout(() => proc.kill("SIGKILL"), PROBE_TIMEOUT_MS);
      proc.stderr!.on("data", (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-16_000);
        // Enough said: the input is described; no need to wait for ffmpeg to give up on the missing output.
        if (parseVideoStream(stderr)) proc.kill("SIGKILL");
      });
      proc.on("error", (e) => {
        clearTimeout(timer);
        reject(new CameraUnavailable("unreachable", e.message));
      });
      proc.on("close", () => {
        clearTimeout(timer);
        const found = parseVideoStream(stderr);
        if (found) resolve(found);
        else
          reject(
            new CameraUnavailable(
              "unreachable",
              /Stream #/.test(stderr) ? "no_video_stream" : (lastWords(stderr, url) ?? "no_answer"),
            ),
          );
      });
    });
  }

  private async takeSnapshot(unpinned: CameraSource): Promise<Buffer> {
    const s = this.streams.get(unpinned.uid);
    let input: string[] | null = null;
    let source = unpinned;
    if (s?.state === "live") {
      const text = await readFile(path.join(s.dir, "index.m3u8"), "utf8").catch(() => "");
      const segs = text.split("\n").filter((l) => /^seg_\d+\.ts$/.test(l.trim()));
      const newest = segs.at(-1);
      if (newest) input = ["-i", path.join(s.dir, newest.trim())];
    }
    if (!input) {
      source = await this.pinned(unpinned);
      input = inputArgs(source.url, source.hostHeader);
    }
    return new Promise((resolve, reject) => {
      const proc = spawn(
        this.opts.ffmpegPath,
        [
          "-hide_banner",
          "-nostdin",
          "-loglevel",
          "info",
          ...input,
          "-frames:v",
          "1",
          "-an",
          "-f",
          "image2pipe",
          "-c:v",
          "mjpeg",
          "-q:v",
          "4",
          "pipe:1",
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      const chunks: Buffer[] = [];
      let stderr = "";
      const timer = setTimeout(() => proc.kill("SIGKILL"), PROBE_TIMEOUT_MS);
      proc.stdout!.on("data", (d: Buffer) => chunks.push(d));
      proc.stderr!.on("data", (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-16_000);
      });
      proc.on("error", (e) => {
        clearTimeout(timer);
        reject(new CameraUnavailable("unreachable", e.message));
      });
      proc.on("close", () => {
        clearTimeout(timer);
        const jpeg = Buffer.concat(chunks);
        const found = parseVideoStream(stderr);
        if (found && !s) this.opts.onProbe?.(source.uid, found.width, found.height);
        if (jpeg.length > 100 && jpeg[0] === 0xff && jpeg[1] === 0xd8) resolve(jpeg);
        else reject(new CameraUnavailable("unreachable", lastWords(stderr, source.url) ?? "no_picture"));
      });
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const s of this.streams.values()) {
      if (s.proc && s.state === "live" && now - s.lastRead > this.opts.idleMs) {
        this.opts.log?.(`cctv ${s.uid}: nobody watches, stopping`);
        this.stop(s);
        this.streams.delete(s.uid);
      } else if (!s.proc && s.state === "unreachable" && now - s.failedAt > FAILURE_SHOWN_MS) {
        this.streams.delete(s.uid);
      }
    }
  }

  private stop(s: Stream): void {
    s.stopping = true;
    const proc = s.proc;
    if (proc && proc.exitCode === null) {
      proc.kill("SIGTERM");
      setTimeout(() => {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      }, 3_000).unref();
      proc.once("exit", () => rmSync(s.dir, { recursive: true, force: true }));
    } else {
      rmSync(s.dir, { recursive: true, force: true });
    }
  }
}

/**
 * The source as ffmpeg is to reach it: its address checked by the outbound-address rule now, and its host replaced
 * by the address checked (an HTTP source keeps its name in the Host header). Refused: CameraUnavailable("refused").
 */
export async function pinCameraSource(rule: OutboundAddressRule, source: CameraSource): Promise<CameraSource> {
  const check = await rule.check(source.url);
  if (!check.ok) throw new CameraUnavailable("refused", check.problem);
  const http = check.target.url.protocol === "http:" || check.target.url.protocol === "https:";
  return {
    ...source,
    url: pinnedUrl(check, source.url),
    hostHeader: http && !check.target.literal ? check.target.url.host : undefined,
  };
}
