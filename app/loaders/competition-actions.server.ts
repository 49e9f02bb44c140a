import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { rulesFromForm } from "~/lib/competition-rules";
import { commitOrRefuse, endRefusedWrite } from "~/lib/forms.server";
import { RULES_SAVED, updateCompetitionRules } from "~/models/competition-creation.server";
import { writeAsUser } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

/*
 * The competition page's actions that concern the organiser's rules (decision 028), kept out of the route module:
 * the route only routes the intent. The rules are SQL's (update_competition_rules); this reads the form and
 * answers.
 */

interface Act {
  request: Request;
  context: AppLoadContext;
  competitionId: string;
}

/**
 * intent=update-rules with the rules fields (lives, draws, missedPick, everyoneOut, winPoints, drawPoints,
 * lossPoints, joker): the creator's change until the start match day's deadline. A refused value or a refusal of the
 * database ("The rules are fixed once the competition has started.", not the creator) is a 4xx with its message and
 * changes nothing; "Rules saved." only after the COMMIT.
 */
export async function updateRules({ request, context, competitionId }: Act, form: FormData) {
  const intent = "update-rules" as const;
  const parsed = rulesFromForm(form);
  if (!parsed.ok) return data({ intent, errors: {}, message: parsed.message }, { status: 400 });
  const result = await writeAsUser(request, context, (userId) => updateCompetitionRules(context.db, userId, competitionId, parsed.rules));
  if (!result.ok) {
    await endRefusedWrite(context.db);
    return data({ intent, errors: {}, message: result.message }, { status: result.status });
  }
  const failed = await commitOrRefuse(context.db, "Failed to save the rules.", { intent });
  if (failed) return failed;
  return redirectWithToast(context.env, `/competition/${competitionId}`, { type: "success", message: RULES_SAVED });
}
