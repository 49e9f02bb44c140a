import type { AppLoadContext } from "@remix-run/cloudflare";
import { requireUser } from "./session.server";
import { redirectWithToast } from "./toast.server";
import type { SessionUser } from "./db/types";

export const ACCESS_DENIED = "Access denied. Admins only.";

/** Admin pages and actions: the role is checked on the server for every request. */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await requireUser(request, context);
  if (user.role !== "admin") throw await redirectWithToast(context.env, "/", { type: "error", message: ACCESS_DENIED });
  return user;
}
