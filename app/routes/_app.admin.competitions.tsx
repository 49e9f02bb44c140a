import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/admin.server";
import type { SessionUser } from "~/db/types";
import { CreateCompetitionSection, type CreateCompetitionValues } from "~/components/admin/CreateCompetitionSection";
import { ADMIN_PATHS } from "~/components/admin/sections";
import { intentOf, invalid, parseForm, readForm, unknownIntent } from "~/lib/forms.server";
import { todayIn } from "~/lib/validation";
import { rulesFromForm } from "~/lib/competition-rules";
import { adminCompetitionSchema, adminCreateCompetition, CREATED } from "~/models/admin-competitions.server";
import { redirectWithToast } from "~/toast.server";
import { safeTimeZone } from "~/lib/date-format";
import { creationMatchDaysQuery, toCreationOptions } from "~/models/competition-creation.server";
import { requireUserWith } from "~/session.server";

/** Admin panel, Create Competition (/admin/competitions): public competitions of any listed league and season. */

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The form's leagues and seasons travel with the session check (one round trip); the role is checked on its answer.
  const { data: rows } = await requireUserWith(request, context, (userId) =>
    context.db.asUser(userId, (sql) => creationMatchDaysQuery(sql)),
  );
  const user = await requireAdmin(request, context);
  return { today: todayIn(context.now, user.timeZone), timeZone: safeTimeZone(user.timeZone), choices: toCreationOptions(rows) };
}

const FIELDS = [
  "name",
  "type",
  "league",
  "season",
  "startDate",
  "startMatchDay",
  "prize",
  "prizeTitle",
  "prizeDescription",
  "prizeTermsUrl",
  "prizeImageUrl",
  "lives",
  "draws",
  "missedPick",
  "everyoneOut",
  "winPoints",
  "drawPoints",
  "lossPoints",
  "joker",
] as const;

/** The submitted text fields, echoed back so a refused form keeps what was typed (without JavaScript too). */
function submitted(form: FormData): CreateCompetitionValues {
  const values: Record<string, string> = {};
  for (const key of FIELDS) {
    const v = form.get(key);
    values[key] = typeof v === "string" ? v : "";
  }
  return values;
}

type Ctx = { form: FormData; user: SessionUser; context: AppLoadContext };

async function createCompetitionAction({ form, user, context }: Ctx) {
  const intent = "create-competition";
  const values = submitted(form);
  const parsed = parseForm(form, adminCompetitionSchema(todayIn(context.now, user.timeZone)));
  if (!parsed.ok) return invalid(parsed.errors, parsed.message, 400, { intent, values });
  // The organiser's rules (decision 028): the same fields and messages as the private form; SQL checks again.
  const rules = rulesFromForm(form);
  if (!rules.ok) return invalid({}, rules.message, 400, { intent, values });
  const result = await adminCreateCompetition(context.db, user.id, { ...parsed.data, rules: rules.rules });
  if (result.ok) return redirectWithToast(context.env, ADMIN_PATHS.create, { type: "success", message: CREATED });
  return invalid({}, result.message, result.status, { intent, values });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  const form = await readForm(request);
  switch (intentOf(form)) {
    case "create-competition":
      return createCompetitionAction({ form, user, context });
    default:
      return unknownIntent();
  }
}

type ActionData = { intent: string; message: string | null; values?: CreateCompetitionValues };

export default function AdminCreateCompetition() {
  const { today, timeZone, choices } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  // A refusal shows once, inline above the form (no toast beside it); a success is the redirect's toast.
  const refused = actionData?.intent === "create-competition" ? actionData : null;
  return (
    <CreateCompetitionSection
      today={today}
      timeZone={timeZone}
      choices={choices}
      error={refused?.message ?? null}
      values={refused?.values ?? null}
    />
  );
}
