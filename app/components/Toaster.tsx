/**
 * Toasts: top-right messages of type info, success or error, shown 4000 ms by
 * default (or for a given duration). If the toast mechanism fails, a browser
 * alert shows the message instead (spec, part 1 section 2).
 *
 * <ToastProvider initial={flashToast}> wraps the app; `initial` comes from the
 * server flash cookie (root loader) and is shown once per id, including in the
 * server HTML so it is visible before JavaScript loads.
 */
import { Component, createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ReactNode } from "react";
import { IconAlert, IconCheckCircle, IconClose, IconInfo } from "~/components/Icons";

type ToastType = "info" | "success" | "error";

type Toast = {
  id: string;
  type: ToastType;
  message: string;
  /** Milliseconds before the toast hides itself (default 4000). 0 or less: stays until dismissed. */
  duration?: number;
  /** A flash toast (the answer to a form after its redirect): it takes the focus if the navigation dropped it. */
  flash?: boolean;
};

type ToastApi = {
  show: (type: ToastType, message: string, duration?: number) => void;
};

const DEFAULT_TOAST_DURATION = 4000;
// A layout effect's cleanup runs before React removes the element (so it can still see that it holds the focus).
const useIsomorphicLayoutEffect = typeof window !== "undefined" ? useLayoutEffect : useEffect;

function alertFallback(message: string) {
  try {
    if (typeof window !== "undefined" && typeof window.alert === "function") window.alert(message);
  } catch {
    // Nothing more we can do.
  }
}

/** Used when no provider is mounted: the toast mechanism is unavailable, so alert. */
const FALLBACK_API: ToastApi = {
  show: (_type, message) => alertFallback(message),
};

const ToastContext = createContext<ToastApi | null>(null);

let counter = 0;
function newToastId(): string {
  counter += 1;
  return `toast-${Date.now().toString(36)}-${counter}`;
}

type ToastProviderProps = {
  initial?: Toast | null;
  children: ReactNode;
};

export function ToastProvider({ initial = null, children }: ToastProviderProps) {
  // The initial (flash) toast is part of the first render so the server HTML has it too.
  const [toasts, setToasts] = useState<Toast[]>(() => (initial ? [{ ...initial, flash: true }] : []));
  const [seenFlashIds, setSeenFlashIds] = useState<ReadonlySet<string>>(() => new Set(initial ? [initial.id] : []));

  const dismiss = useCallback((id: string) => {
    setToasts((list) => list.filter((t) => t.id !== id));
  }, []);

  // A new toast replaces the older ones: a stale error never stays beside the success that followed it.
  const push = useCallback((toast: Toast) => {
    setToasts([toast]);
  }, []);

  // A new flash toast arrives with each root-loader revalidation: show each id (a server UUID) once.
  // Adjusted while rendering, not in an effect, so it shows without an extra render pass.
  if (initial && !seenFlashIds.has(initial.id)) {
    setSeenFlashIds(new Set(seenFlashIds).add(initial.id));
    push({ ...initial, flash: true });
  }

  const api = useMemo<ToastApi>(
    () => ({
      show(type, message, duration) {
        try {
          push({ id: newToastId(), type, message, duration });
        } catch {
          alertFallback(message);
        }
      },
    }),
    [push],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toaster">
        {toasts.map((toast) => (
          <ToastBoundary key={toast.id} message={toast.message} onFail={() => dismiss(toast.id)}>
            <ToastItem toast={toast} onDismiss={dismiss} />
          </ToastBoundary>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** `show(type, message, duration?)`. Outside a ToastProvider it falls back to window.alert. */
export function useToast(): ToastApi {
  return useContext(ToastContext) ?? FALLBACK_API;
}

const ICONS = { info: IconInfo, success: IconCheckCircle, error: IconAlert } as const;

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const { id, type, message } = toast;
  const duration = toast.duration ?? DEFAULT_TOAST_DURATION;
  const [paused, setPaused] = useState(false);
  const remaining = useRef(duration);
  const startedAt = useRef(0);
  const ref = useRef<HTMLDivElement>(null);
  const tookFocus = useRef(false);

  // After a form's redirect the pressed button is often gone and focus falls to the page body: keep the keyboard
  // (and screen reader) at the answer instead. Only when nothing else holds the focus.
  useEffect(() => {
    const el = ref.current;
    if (!toast.flash || !el) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement && active.id !== "main") return;
    tookFocus.current = true;
    el.focus({ preventScroll: true });
  }, [toast.flash]);

  // Leaving: if the toast holds the focus, hand it to the page's main region rather than the body.
  useIsomorphicLayoutEffect(() => {
    const el = ref.current;
    return () => {
      if (el && el.contains(document.activeElement)) document.getElementById("main")?.focus({ preventScroll: true });
    };
  }, []);

  // Auto-dismiss; the countdown pauses while the pointer or keyboard focus is on the toast.
  useEffect(() => {
    if (!(duration > 0) || !Number.isFinite(duration) || paused) return;
    startedAt.current = Date.now();
    const timer = window.setTimeout(() => onDismiss(id), Math.max(0, remaining.current));
    return () => {
      window.clearTimeout(timer);
      remaining.current -= Date.now() - startedAt.current;
    };
  }, [duration, paused, id, onDismiss]);

  const Icon = ICONS[type] ?? IconInfo;

  return (
    <div
      className={`toast toast-${type}`}
      role={type === "error" ? "alert" : "status"}
      aria-atomic="true"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      ref={ref}
      tabIndex={toast.flash ? -1 : undefined}
      onFocus={() => {
        // The focus it took itself does not hold the toast open; a player's own focus (Tab, pointer) does.
        if (tookFocus.current) tookFocus.current = false;
        else setPaused(true);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setPaused(false);
      }}
    >
      <Icon className="toast-icon" />
      <p className="toast-message">{message}</p>
      <button type="button" className="toast-dismiss" aria-label="Dismiss notification" onClick={() => onDismiss(id)}>
        <IconClose size={18} />
      </button>
    </div>
  );
}

type BoundaryProps = { message: string; onFail: () => void; children: ReactNode };

/** If a toast cannot render, show its message with window.alert and drop it. */
class ToastBoundary extends Component<BoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch() {
    alertFallback(this.props.message);
    this.props.onFail();
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
