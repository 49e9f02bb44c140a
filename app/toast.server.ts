import { createCookie, redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import type { Env } from "./env.server";
import { readCookie } from "./lib/read-cookie.server";

type ToastType = "info" | "success" | "error";
interface Toast {
  id: string;
  type: ToastType;
  message: string;
  duration?: number;
}

const ToastSchema = z.object({
  id: z.string(),
  type: z.enum(["info", "success", "error"]),
  message: z.string().max(500),
  duration: z.number().int().positive().optional(),
});

/** A signed one-shot cookie: the toast survives a redirect and is shown once. */
function flashCookie(env: Env) {
  return createCookie("fc_flash", {
    httpOnly: true,
    sameSite: "lax",
    secure: env.ENVIRONMENT === "production",
    path: "/",
    maxAge: 60,
    secrets: [env.SESSION_SECRET],
  });
}

export async function toastCookie(env: Env, toast: Omit<Toast, "id">): Promise<string> {
  return flashCookie(env).serialize({ ...toast, id: crypto.randomUUID() });
}

/** Reads the pending toast and the header that clears it. */
export async function readToast(request: Request, env: Env): Promise<{ toast: Toast | null; clear: string | null }> {
  const raw = await readCookie(flashCookie(env), request);
  if (!raw) return { toast: null, clear: null };
  const parsed = ToastSchema.safeParse(raw);
  return {
    toast: parsed.success ? parsed.data : null,
    clear: await flashCookie(env).serialize("", { maxAge: 0 }),
  };
}

export async function redirectWithToast(
  env: Env,
  url: string,
  toast: Omit<Toast, "id">,
  init: { headers?: HeadersInit; status?: number } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(env, toast));
  return redirect(url, { status: init.status, headers });
}
