import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { listHref } from "~/lib/competition-filters";
import { formFieldOfMessage, type CompetitionFormField } from "~/lib/competition-form-fields";
import { joinMessage } from "~/lib/outcome-messages";
import { safeRedirect } from "~/lib/safe-redirect";
import { todayIn } from "~/lib/validation";
import { joinCompetition } from "~/models/competitions.server";
import { createPrivateCompetition, readCreateForm } from "~/models/competition-creation.server";
import { requireUser, writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/*
 * The competitions page's form posts (/competitions): joining from a card or the key dialog, and creating a
 * private competition (the dashboard's form posts here too). The route only picks the handler by intent.
 */

/** The list URL a form came from: where it returns. */
function backTo(value: FormDataEntryValue | null): string {
  const url = new URL(safeRedirect(value, "/competitions"), "http://x");
  return listHref(url.pathname, url.search);
}

const JoinSchema = z.object({
  competitionId: z.uuid(),
  registrationKey: z.string().max(100).optional(),
});

export async function joinFromList(request: Request, context: AppLoadContext, form: FormData) {
  const js = form.get("_js") === "1";
  const back = backTo(form.get("redirectTo"));
  const parsed = JoinSchema.safeParse({
    competitionId: form.get("competitionId") ?? "",
    registrationKey: typeof form.get("registrationKey") === "string" ? form.get("registrationKey") : undefined,
  });
  if (!parsed.success) {
    const toast = { type: "error" as const, message: "Competition not found" };
    return js
      ? data({ intent: "join" as const, competitionId: "", code: "not_found", toast }, { status: 400 })
      : redirectWithToast(context.env, back, toast);
  }
  const { competitionId, registrationKey } = parsed.data;
  // Without a username the database answers no_username (below), so the join needs no check before it.
  const result = await writeAsUser(request, context, (userId) =>
    joinCompetition(context.db, userId, competitionId, registrationKey ?? null),
  );
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  if (result.code === "no_username") throw redirect(`/setup-profile?redirectTo=${encodeURIComponent(back)}`);
  const toast = joinMessage(result);
  const payload = { intent: "join" as const, competitionId, code: result.code, toast };
  // A wrong key keeps the dialog open (rendered from this response without JS, from fetcher data with JS).
  if (result.code === "invalid_key") return data(payload, { status: 400 });
  if (js) return data(payload, { status: result.code === "error" ? 500 : 200 });
  return redirectWithToast(context.env, back, toast);
}

// ---------- private competition creation form ----------

type CreateRefusal = { intent: "create-private"; ok: false; type: "info" | "error"; message: string; field: CompetitionFormField | null };

/**
 * Creates a private competition (spec part 1 §5 and the rules file's "The organiser's rules": every creator chooses
 * type, league, season, start match day and the rules). A refusal comes back with the field it is about, so the
 * modal shows it there (with JavaScript; without, the modal opens again with the message as a toast).
 */
export async function createPrivate(request: Request, context: AppLoadContext, form: FormData) {
  const js = form.get("_js") === "1";
  const user = await requireUser(request, context);
  const back = safeRedirect(form.get("redirectTo"), "/competitions?create=1");
  const refuse = (message: string, type: "info" | "error", status: number) => {
    const body: CreateRefusal = { intent: "create-private", ok: false, type, message, field: formFieldOfMessage(message) };
    return js ? data(body, { status }) : redirectWithToast(context.env, back, { type, message });
  };
  const parsed = readCreateForm(form, todayIn(context.now, user.timeZone));
  if (!parsed.ok) return refuse(parsed.message, "info", 400);
  const result = await createPrivateCompetition(context.db, user.id, parsed.input);
  await context.db.commit(); // saved before the answer says so (a failed COMMIT answers 503)
  if (!result.ok) return refuse(result.message, result.type, result.type === "info" ? 400 : 500);
  if (js) return data({ intent: "create-private" as const, ...result });
  return redirectWithToast(context.env, `/competitions?created=${result.id}`, {
    type: "success",
    message: "Private competition created successfully!",
  });
}
