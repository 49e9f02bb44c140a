import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { readForm } from "~/lib/forms.server";
import { saveConsent } from "~/models/profile.server";

/** Keeps the analytics choice on the profile of a signed-in player (the browser keeps it too). */
export async function action({ context, request }: ActionFunctionArgs) {
  const user = await context.user();
  if (!user) return data({ ok: false, message: "You must be logged in." }, { status: 401 });
  const value = (await readForm(request)).get("consent");
  if (value !== "granted" && value !== "denied") return data({ ok: false, message: "Invalid consent value." }, { status: 400 });
  if (user.username) await saveConsent(context.db, user.id, value === "granted");
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  return data({ ok: true, message: null });
}
