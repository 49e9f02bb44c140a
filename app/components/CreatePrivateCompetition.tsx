import { Link, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { CopyButton } from "~/components/CopyButton";
import { Modal, spaceActivates, useHydrated } from "~/components/RegistrationKeyDialog";
import { useToast } from "~/components/Toaster";
import { CREATE_LEAGUES, CREATE_SEASONS, CREATE_TYPES, PLAYER_CREATE_DEFAULTS } from "~/lib/competition-options";

const TYPES = CREATE_TYPES;
const LEAGUES = CREATE_LEAGUES;
const SEASONS = CREATE_SEASONS;
const FIXED = PLAYER_CREATE_DEFAULTS;

export type CreateActionData =
  | { intent: "create-private"; ok: true; id: string; name: string; registrationKey: string }
  | { intent: "create-private"; ok: false; type: "info" | "error"; message: string }
  | undefined;

interface Props {
  isAdmin: boolean;
  /** The player's calendar date (YYYY-MM-DD): the earliest start date. */
  today: string;
}

/**
 * "+ Private Competition" and its creation modal (spec part 1 §5). Posts intent "create-private" to the
 * /competitions action. With JS the result (registration key + copy) shows in the modal; without JS the
 * modal is opened by ?create=1 and the action redirects to /competitions?created=<id>.
 */
export function CreatePrivateCompetition({ isAdmin, today }: Props) {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const toast = useToast();
  const fetcher = useFetcher<CreateActionData>();
  const params = new URLSearchParams(location.search);
  const urlOpen = params.get("create") === "1";
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<{ name: string; registrationKey: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const handled = useRef<unknown>(null);
  const busy = fetcher.state !== "idle";

  params.delete("create");
  params.delete("created");
  const baseQs = params.toString();
  const here = `${location.pathname}${baseQs ? `?${baseQs}` : ""}`;
  const openParams = new URLSearchParams(baseQs);
  openParams.set("create", "1");
  const openHref = `${location.pathname}?${openParams.toString()}`;

  const close = useCallback(() => {
    setOpen(false);
    setCreated(null);
    setError(null);
    if (urlOpen) navigate(here, { replace: true, preventScrollReset: true });
  }, [urlOpen, navigate, here]);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      toast.show("success", "Private competition created successfully!");
      setCreated({ name: result.name, registrationKey: result.registrationKey });
      setError(null);
    } else {
      toast.show(result.type, result.message);
      setError(result.message);
    }
  }, [fetcher.state, fetcher.data, toast]);

  const isOpen = open || urlOpen;
  return (
    <>
      <Link
        to={openHref}
        role="button"
        onKeyDown={spaceActivates}
        className="btn btn-primary"
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
            <fetcher.Form method="post" action="/competitions" className="dialog-body" noValidate>
              <input type="hidden" name="intent" value="create-private" />
              <input type="hidden" name="redirectTo" value={openHref} />
              {hydrated ? <input type="hidden" name="_js" value="1" /> : null}
              {error ? (
                <div className="form-error" role="alert">
                  {error}
                </div>
              ) : null}
              <div className="field">
                <label htmlFor="create-name">Competition Name</label>
                <input id="create-name" name="name" type="text" required maxLength={100} autoComplete="off" />
              </div>
              <div className="create-grid">
                <div className="field">
                  <label htmlFor="create-type">Type</label>
                  <select id="create-type" name="type" required disabled={!isAdmin} defaultValue={FIXED.type}>
                    {TYPES.map((t) => (
                      <option key={t.value} value={t.value}>
                        {t.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="create-league">League</label>
                  <select id="create-league" name="league" required disabled={!isAdmin} defaultValue={FIXED.league}>
                    {LEAGUES.map((l) => (
                      <option key={l} value={l}>
                        {l}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor="create-season">Season</label>
                  <select id="create-season" name="season" required disabled={!isAdmin} defaultValue={FIXED.season}>
                    {SEASONS.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              {!isAdmin ? <p className="field-hint">Private competitions are Knockout, Premier League, 2025/26.</p> : null}
              <div className="create-grid">
                <div className="field">
                  <label htmlFor="create-start-date">Start Date</label>
                  <input id="create-start-date" name="startDate" type="date" required min={today} defaultValue={today} />
                </div>
                <div className="field">
                  <label htmlFor="create-start-md">Start Match Day</label>
                  <input
                    id="create-start-md"
                    name="startMatchDay"
                    type="text"
                    inputMode="numeric"
                    pattern="[0-9]*"
                    required
                    autoComplete="off"
                  />
                </div>
              </div>
              <div className="dialog-actions">
                {hydrated ? (
                  <button type="button" className="btn btn-secondary" onClick={close}>
                    Cancel
                  </button>
                ) : (
                  <a className="btn btn-secondary" href={here}>
                    Cancel
                  </a>
                )}
                <button type="submit" className="btn btn-primary" disabled={busy}>
                  {busy ? "Creating..." : "Create"}
                </button>
              </div>
            </fetcher.Form>
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
