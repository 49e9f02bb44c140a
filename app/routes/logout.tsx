import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { endSession } from "~/session.server";

export async function action({ request, context }: ActionFunctionArgs) {
  return redirect("/login", { headers: { "Set-Cookie": await endSession(request, context.env, context.db) } });
}

export function loader() {
  return redirect("/");
}
