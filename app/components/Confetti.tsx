import { useEffect, useState } from "react";

/** Spec §9: 150 pieces over 5 seconds. */
const CONFETTI_PIECES = 150;
const CONFETTI_DURATION_MS = 5000;
const BURSTS = 10;

type State = "idle" | "playing" | "done" | "skipped";

interface Props {
  /** Remembered in localStorage once played: the celebration shows once per browser (e.g. per competition). */
  storageKey: string;
}

function alreadyPlayed(key: string): boolean {
  try {
    return window.localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

function remember(key: string) {
  try {
    window.localStorage.setItem(key, new Date().toISOString());
  } catch {
    // Storage blocked: the confetti may show again, which is harmless.
  }
}

/**
 * A one-off confetti celebration. canvas-confetti is imported dynamically inside the effect, so it is never part
 * of the server render nor of the page's main bundle, and it is fetched only when the confetti will actually play:
 * not when it already played for this key, and not when the player prefers reduced motion.
 */
export function Confetti({ storageKey }: Props) {
  const [state, setState] = useState<State>("idle");

  useEffect(() => {
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    if (reduced || alreadyPlayed(storageKey)) {
      // Reduced motion and localStorage exist only in the browser, after hydration: the effect is the place to read them.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setState("skipped");
      return;
    }
    let cancelled = false;
    const timers: number[] = [];
    let canvas: HTMLCanvasElement | null = null;
    let reset: (() => void) | null = null;

    void import("canvas-confetti")
      .then(({ default: confetti }) => {
        if (cancelled) return;
        remember(storageKey);
        canvas = document.createElement("canvas");
        canvas.className = "confetti-canvas";
        canvas.setAttribute("aria-hidden", "true");
        canvas.dataset.testid = "confetti";
        document.body.appendChild(canvas);
        const fire = confetti.create(canvas, { resize: true, useWorker: false, disableForReducedMotion: true });
        reset = () => fire.reset();
        setState("playing");
        const perBurst = CONFETTI_PIECES / BURSTS;
        const interval = CONFETTI_DURATION_MS / BURSTS;
        const finished: Promise<unknown>[] = [];
        for (let i = 0; i < BURSTS; i++) {
          timers.push(
            window.setTimeout(() => {
              const side = i % 2 === 0 ? 0.2 : 0.8;
              const done = fire({
                particleCount: perBurst,
                spread: 70,
                startVelocity: 40,
                ticks: 120,
                origin: { x: side, y: 0.6 },
              });
              if (done) finished.push(done);
              if (i === BURSTS - 1) {
                void Promise.all(finished).then(() => {
                  if (cancelled) return;
                  canvas?.remove();
                  setState("done");
                });
              }
            }, i * interval),
          );
        }
      })
      .catch(() => {
        if (!cancelled) setState("skipped");
      });

    return () => {
      cancelled = true;
      timers.forEach((t) => window.clearTimeout(t));
      reset?.();
      canvas?.remove();
    };
  }, [storageKey]);

  // A marker for tests and tools: whether the celebration played or was skipped on this visit.
  return <span hidden data-confetti={state} />;
}
