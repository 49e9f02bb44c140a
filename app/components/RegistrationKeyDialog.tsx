import { useFetcher } from "@remix-run/react";
import { DialogForm, useFetcherResult } from "~/components/DialogForm";
import { Field } from "~/components/Field";
import { Modal } from "~/components/Modal";
import { useToast } from "~/components/Toaster";
import { trackEvent } from "~/lib/analytics.client";
import type { CompetitionRules } from "~/lib/competition-rules";
import { RulesList } from "~/components/rules/RulesList";

export type JoinActionData =
  { intent: "join"; competitionId: string; code: string; toast: { type: "info" | "success" | "error"; message: string } } | undefined;

interface Props {
  competitionId: string;
  competitionName: string;
  /** Its rules, so the player sees them before joining (the competition card shows them too). */
  competitionRules: { type: "knockout" | "season"; rules: CompetitionRules } | null;
  /** Where the page returns after a join (the current URL without ?join). */
  redirectTo: string;
  onClose: () => void;
  /** The error of a no-JS submission (rendered by the server with the dialog open). */
  serverError?: string | null;
}

/** Enter Registration Key: the key of a private competition, then join_competition. */
export function RegistrationKeyDialog({ competitionId, competitionName, competitionRules, redirectTo, onClose, serverError }: Props) {
  const fetcher = useFetcher<JoinActionData>();
  const toast = useToast();
  const result = fetcher.data;
  const error = result && result.code !== "joined" && result.code !== "already_joined" ? result.toast.message : (serverError ?? null);

  useFetcherResult(fetcher, (outcome) => {
    trackEvent("private_join_attempt", { competition_id: competitionId });
    toast.show(outcome.toast.type, outcome.toast.message);
    if (outcome.code === "joined") {
      trackEvent("private_join_success", { competition_id: competitionId });
      trackEvent("competition_register", { competition_id: competitionId, visibility: "private" });
    }
    if (outcome.code === "joined" || outcome.code === "already_joined") onClose();
  });

  return (
    <Modal title="Enter Registration Key" onClose={onClose}>
      <DialogForm
        fetcher={fetcher}
        intent="join"
        redirectTo={redirectTo}
        cancelHref={redirectTo}
        onCancel={onClose}
        submitLabel="Join"
        busyLabel="Joining..."
      >
        <p className="key-dialog-name">{competitionName}</p>
        {competitionRules ? (
          <RulesList type={competitionRules.type} rules={competitionRules.rules} label={`Rules of ${competitionName}`} inline />
        ) : null}
        <input type="hidden" name="competitionId" value={competitionId} />
        <Field
          id={`${competitionId}-key`}
          label="Registration Key"
          name="registrationKey"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
          maxLength={100}
          error={error ?? undefined}
        />
      </DialogForm>
    </Modal>
  );
}
