import { Link, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { CompetitionChoiceFields, CompetitionNameField, StartDateField, type CreationChoice } from "~/components/CompetitionFields";
import { CopyButton } from "~/components/CopyButton";
import { DialogForm, useFetcherResult } from "~/components/DialogForm";
import { FormError } from "~/components/Field";
import { Modal } from "~/components/Modal";
import { spaceActivates } from "~/components/spaceActivates";
import { useToast } from "~/components/Toaster";
import { useHydrated } from "~/components/useHydrated";
import { RulesFields } from "~/components/rules/RulesFields";
import type { CompetitionFormField } from "~/lib/competition-form-fields";

type CreateActionData =
  | { intent: "create-private"; ok: true; id: string; name: string; registrationKey: string }
  | { intent: "create-private"; ok: false; type: "info" | "error"; message: string; field: CompetitionFormField | null }
  | undefined;

interface Props {
  /** The leagues and seasons with a coming match day (the Type, League, Season and Start Match Day choices). */
  choices: CreationChoice[];
  /** The player's zone (the start match day's deadline in the hint). */
  timeZone: string;
  /** The player's calendar date (YYYY-MM-DD): the earliest start date. */
  today: string;
  /** The page's primary action (default); secondary where another step matters more (a new player's Browse). */
  primary?: boolean;
}

/**
 * "+ Private Competition" and its creation modal (spec part 1 §5; the rules file's "The organiser's rules": every
 * creator chooses type, league, season, start match day and the rules). Posts intent "create-private" to the
 * /competitions action. With JS the result (registration key + copy) shows in the modal and a refusal next to its
 * field; without JS the modal is opened by ?create=1 and the action redirects to /competitions?created=<id>.
 */
export function CreatePrivateCompetition({ choices, timeZone, today, primary = true }: Props) {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const toast = useToast();
  const fetcher = useFetcher<CreateActionData>();
  const params = new URLSearchParams(location.search);
  const urlOpen = params.get("create") === "1";
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<{ name: string; registrationKey: string } | null>(null);
  const [error, setError] = useState<{ message: string; field: CompetitionFormField | null } | null>(null);

  params.delete("create");
  params.delete("created");
  const baseQs = params.toString();
  const here = `${location.pathname}${baseQs ? `?${baseQs}` : ""}`;
  const openParams = new URLSearchParams(baseQs);
  openParams.set("create", "1");
  const openHref = `${location.pathname}?${openParams.toString()}`;

  // Not memoised: Modal and DialogForm do not depend on its identity.
  const close = () => {
    setOpen(false);
    setCreated(null);
    setError(null);
    if (urlOpen) navigate(here, { replace: true, preventScrollReset: true });
  };

  useFetcherResult(fetcher, (result) => {
    if (result.ok) {
      toast.show("success", "Private competition created successfully!");
      setCreated({ name: result.name, registrationKey: result.registrationKey });
      setError(null);
    } else {
      toast.show(result.type, result.message);
      setError({ message: result.message, field: result.field ?? null });
    }
  });

  const isOpen = open || urlOpen;
  return (
    <>
      <Link
        to={openHref}
        role="button"
        onKeyDown={spaceActivates}
        className={primary ? "btn btn-primary" : "btn btn-secondary"}
        preventScrollReset
        onClick={(event) => {
          if (!hydrated) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        + Private Competition
      </Link>
      {isOpen ? (
        <Modal title={created ? "Private Competition Created" : "Create Private Competition"} onClose={close} className="create-dialog">
          {created ? (
            <div className="dialog-body">
              <p>
                <strong>{created.name}</strong> is ready. Share its registration key with the players you invite.
              </p>
              <RegistrationKeyView registrationKey={created.registrationKey} />
              <div className="dialog-actions">
                <button type="button" className="btn btn-primary" onClick={close}>
                  Done
                </button>
              </div>
            </div>
          ) : (
            <DialogForm
              fetcher={fetcher}
              action="/competitions"
              intent="create-private"
              redirectTo={openHref}
              cancelHref={here}
              onCancel={close}
              submitLabel="Create"
              busyLabel="Creating..."
            >
              <FormError message={error && !error.field ? error.message : null} />
              <CompetitionNameField idPrefix="create" error={error?.field === "name" ? error.message : undefined} />
              <CompetitionChoiceFields
                idPrefix="create"
                choices={choices}
                values={{}}
                timeZone={timeZone}
                error={error}
                gridClassName="create-grid"
              />
              <StartDateField
                idPrefix="create"
                today={today}
                defaultValue={today}
                error={error?.field === "startDate" ? error.message : undefined}
              />
              <RulesFields idPrefix="create" error={error} />
            </DialogForm>
          )}
        </Modal>
      ) : null}
    </>
  );
}

/** The registration key of a private competition with its copy button. */
export function RegistrationKeyView({ registrationKey }: { registrationKey: string }) {
  return (
    <div className="registration-key">
      <span className="registration-key-label">Registration Key</span>
      <code className="registration-key-value" data-testid="registration-key">
        {registrationKey}
      </code>
      <CopyButton text={registrationKey} label="Copy registration key" />
    </div>
  );
}
