/**
 * A camera's picture. Rendered on the server (and so without script) as a still snapshot; once the page runs
 * script it becomes a live video: native HLS where the browser has it (Safari), else hls.js, loaded only on
 * this screen. The signed URL is short-lived: the player asks the portal for a fresh one every few minutes
 * and hls.js's requests use the newest token. When the stream cannot be played the state is said in words
 * (unreachable, ffmpeg missing) with a button to try again.
 *
 * One state line (issue 26 point 13): without script the server's word on the camera; with script the player's
 * own — "connecting" until the first picture plays, then "playing". A load that fails while the server is still
 * connecting to the camera is tried again soon, still "connecting"; only the server's word that the camera
 * failed, or no picture within CONNECT_GIVE_UP_MS, shows as a failure (domain/cctv.ts afterLoadFailure).
 */
import { useEffect, useRef, useState } from "react";
import { afterLoadFailure, CCTV_URL_RENEW_MS, CONNECT_RETRY_MS } from "../../../domain/cctv";
import type { CameraState, CctvUrlResponse } from "../../../domain/contract/cctv";
import { fmt } from "~/i18n";
import { useCctvT } from "~/i18n/cctv";
import { useHydratedView } from "~/utils/use-hydrated-view";

type Phase = "loading" | "playing" | CameraState | "no_player";

const RETRY_MS = 15_000;
const TOKEN_IN_URL = /\/api\/cctv\/hls\/[^/]+\//;

async function freshUrl(uid: string): Promise<CctvUrlResponse | null> {
  const res = await fetch(`/resources/cctv-url?uid=${encodeURIComponent(uid)}&_data=routes%2Fresources.cctv-url`, {
    credentials: "same-origin",
  });
  if (!res.ok) return null;
  return (await res.json()) as CctvUrlResponse;
}

export function CameraPlayer({ camera, stream }: { camera: { uid: string; name: string }; stream: CctvUrlResponse }) {
  const t = useCctvT();
  const hydrated = useHydratedView();
  const [phase, setPhase] = useState<Phase>("loading");
  const [reason, setReason] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const video = useRef<HTMLVideoElement>(null);
  const current = useRef(stream.url);
  // When this player began to connect (0: not connecting); automatic retries keep it, a picture or a click ends it.
  const since = useRef(0);

  // Keep a valid signed URL while the page is open.
  useEffect(() => {
    current.current = stream.url;
    const timer = window.setInterval(() => {
      void freshUrl(camera.uid)
        .then((u) => {
          if (u) current.current = u.url;
        })
        .catch(() => undefined);
    }, CCTV_URL_RENEW_MS);
    return () => window.clearInterval(timer);
  }, [camera.uid, stream.url]);

  useEffect(() => {
    if (!hydrated || !video.current) return;
    const el = video.current;
    let cancelled = false;
    let destroy: (() => void) | null = null;
    setPhase("loading");
    setReason(null);
    if (!since.current) since.current = Date.now();
    let retry: number | undefined;

    const failed = async () => {
      if (cancelled) return;
      const u = await freshUrl(camera.uid).catch(() => null);
      if (cancelled) return;
      if (u) current.current = u.url;
      // A stream that broke after it played begins a new wait for its picture.
      if (!since.current) since.current = Date.now();
      const next = afterLoadFailure(u?.state ?? null, Date.now() - since.current);
      if (next === "connecting") {
        // The server is still connecting to the camera: ask again soon, still saying "connecting".
        retry = window.setTimeout(() => setAttempt((n) => n + 1), CONNECT_RETRY_MS);
        return;
      }
      since.current = 0;
      setPhase(next);
      setReason(u?.last_error ?? null);
    };
    const onPlaying = () => {
      if (cancelled) return;
      since.current = 0;
      setPhase("playing");
    };
    el.addEventListener("playing", onPlaying);

    if (el.canPlayType("application/vnd.apple.mpegurl")) {
      el.src = current.current;
      el.addEventListener("error", failed, { once: true });
      void el.play().catch(() => undefined);
      destroy = () => {
        el.removeAttribute("src");
        el.load();
      };
    } else {
      void import("hls.js").then(({ default: Hls }) => {
        if (cancelled) return;
        if (!Hls.isSupported()) {
          setPhase("no_player");
          return;
        }
        const hls = new Hls({
          // No worker: the page's CSP and a kiosk's memory both prefer the main thread for one stream.
          enableWorker: false,
          liveSyncDurationCount: 2,
          // The first playlist waits while the server connects to the camera (a few seconds).
          manifestLoadingTimeOut: 30_000,
          manifestLoadingMaxRetry: 2,
          xhrSetup: (xhr, url) => {
            xhr.open("GET", url.replace(TOKEN_IN_URL, current.current.match(TOKEN_IN_URL)?.[0] ?? "$&"), true);
          },
        });
        hls.on(Hls.Events.ERROR, (_e, data) => {
          if (data.fatal) {
            console.warn("cctv: stream failed", data.type, data.details, data.response?.code ?? "");
            hls.destroy();
            void failed();
          }
        });
        hls.loadSource(current.current);
        hls.attachMedia(el);
        hls.on(Hls.Events.MANIFEST_PARSED, () => void el.play().catch(() => undefined));
        destroy = () => hls.destroy();
      });
    }
    return () => {
      cancelled = true;
      window.clearTimeout(retry);
      el.removeEventListener("playing", onPlaying);
      destroy?.();
    };
  }, [hydrated, camera.uid, attempt]);

  const trouble = phase === "unreachable" || phase === "ffmpeg_missing";
  // A camera that comes back is picked up by itself (kiosks have nobody to press the button).
  useEffect(() => {
    if (phase !== "unreachable") return;
    const timer = window.setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
    return () => window.clearTimeout(timer);
  }, [phase]);
  return (
    <div className="cctv-player">
      {hydrated && phase !== "no_player" ? (
        <video
          ref={video}
          className="cctv-video"
          muted
          autoPlay
          playsInline
          controls
          aria-label={fmt(t.cctv.video, { name: camera.name })}
          hidden={trouble}
        />
      ) : (
        <figure className="cctv-still">
          <img src={stream.snapshot} alt={fmt(t.cctv.snapshot, { name: camera.name })} width={1280} height={720} />
          <figcaption className="muted small">{phase === "no_player" ? t.cctv.noPlayer : t.cctv.snapshotNote}</figcaption>
        </figure>
      )}
      {hydrated ? (
        <p className={`cctv-phase cctv-phase-${phase}`} role="status" aria-live="polite">
          <span aria-hidden="true">{phase === "playing" ? "● " : trouble ? "✕ " : phase === "loading" ? "… " : ""}</span>
          {phase === "playing"
            ? t.cctv.playing
            : phase === "loading"
              ? t.cctv.states.starting
              : phase === "no_player"
                ? ""
                : t.cctv.states[phase]}
        </p>
      ) : (
        // Without script: the server's word on the camera (the page shows a still).
        <p className={`cctv-phase cctv-state-${stream.state}`} role="status">
          <span aria-hidden="true">{t.cctv.stateMarks[stream.state]} </span>
          {t.cctv.states[stream.state]}
          {stream.last_error && stream.state === "unreachable" ? (
            <span className="muted small"> — {fmt(t.cctv.reason, { reason: stream.last_error })}</span>
          ) : null}
        </p>
      )}
      {trouble ? (
        <div className="cctv-trouble">
          <p>{phase === "ffmpeg_missing" ? t.cctv.ffmpegHelp : t.cctv.unreachableHelp}</p>
          {reason ? <p className="muted small">{fmt(t.cctv.reason, { reason })}</p> : null}
          <button
            type="button"
            onClick={() => {
              since.current = 0;
              setAttempt((n) => n + 1);
            }}
          >
            {t.cctv.retry}
          </button>
        </div>
      ) : null}
    </div>
  );
}
