import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Countdown } from "~/components/Countdown";
import type { JoinActionData } from "~/components/RegistrationKeyDialog";
import { spaceActivates } from "~/components/spaceActivates";
import { useHydrated } from "~/components/useHydrated";
import { useToast } from "~/components/Toaster";
import { trackEvent } from "~/lib/analytics.client";
import { typeLabel } from "~/lib/competition-options";
import { TypeBadge } from "~/components/Badges";
import { playerCount } from "~/lib/player-count";
import { RulesList } from "~/components/rules/RulesList";
import type { CompetitionRules } from "~/lib/competition-rules";

interface CompetitionCardProps {
  competition: {
    id: string;
    name: string;
    type: string;
    league: string;
    visibility: "public" | "private";
    registrationStatus: string;
    playerCount: number;
    deadline: string | null;
    joined: boolean;
    /** The organiser's rules, shown before joining. */
    rules: CompetitionRules;
  };
  serverNow: string;
  /** The current list URL (filters and page), where a join returns. */
  redirectTo: string;
  /** The list URL with ?join=<id>: the key dialog's no-JS address. */
  joinHref: string;
  /** Opens the key dialog without navigation (JS). */
  onOpenJoin: () => void;
}

export function LockIcon() {
  return (
    <span className="lock-icon" title="Private">
      <svg
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
        focusable="false"
      >
        <rect x="4" y="11" width="16" height="10" rx="2" />
        <path d="M8 11V7a4 4 0 0 1 8 0v4" />
      </svg>
      <span className="visually-hidden">Private</span>
    </span>
  );
}

export { typeLabel };

/** A card of the competitions list: name, type, lock, league, countdown, players, View and Register. */
export function CompetitionCard({ competition: c, serverNow, redirectTo, joinHref, onOpenJoin }: CompetitionCardProps) {
  const fetcher = useFetcher<JoinActionData>();
  const hydrated = useHydrated();
  const toast = useToast();
  const handled = useRef<unknown>(null);
  const busy = fetcher.state !== "idle";
  const open = c.registrationStatus === "open";

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    toast.show(result.toast.type, result.toast.message);
    if (result.code === "joined") trackEvent("competition_register", { competition_id: c.id, visibility: c.visibility });
  }, [fetcher.state, fetcher.data, toast, c.id, c.visibility]);

  let action;
  if (c.joined) {
    // Joined: the next step is picking a team, so it is the card's primary action.
    action = (
      <>
        <button type="button" className="btn btn-secondary" disabled>
          Joined
        </button>
        <Link className="btn btn-primary" to={`/select-team/${c.id}`}>
          Select Team
        </Link>
      </>
    );
  } else if (!open) {
    action = (
      <button type="button" className="btn btn-primary" disabled>
        Register
      </button>
    );
  } else if (c.visibility === "private") {
    action = (
      <Link
        to={joinHref}
        role="button"
        onKeyDown={spaceActivates}
        className="btn btn-primary"
        preventScrollReset
        replace
        onClick={(event) => {
          if (!hydrated) return;
          event.preventDefault();
          onOpenJoin();
        }}
      >
        Register
      </Link>
    );
  } else {
    action = (
      <fetcher.Form method="post" className="inline-form">
        <input type="hidden" name="intent" value="join" />
        <input type="hidden" name="competitionId" value={c.id} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {hydrated ? <input type="hidden" name="_js" value="1" /> : null}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Joining..." : "Register"}
        </button>
      </fetcher.Form>
    );
  }

  return (
    <article className="card competition-card" aria-labelledby={`competition-${c.id}-name`}>
      <header className="competition-card-header">
        <h2 className="competition-card-title" id={`competition-${c.id}-name`}>
          {c.name}
        </h2>
        <span className="competition-card-tags">
          {c.visibility === "private" ? <LockIcon /> : null}
          <TypeBadge type={c.type} />
        </span>
      </header>
      <p className="competition-card-league">{c.league}</p>
      <Countdown
        deadline={c.deadline}
        serverNow={serverNow}
        caption="Until registration closes"
        announce={open ? "Registration" : undefined}
      />
      <p className="competition-card-players">{playerCount(c.playerCount)}</p>
      {c.type === "knockout" || c.type === "season" ? (
        <RulesList type={c.type} rules={c.rules} label={`Rules of ${c.name}`} inline />
      ) : null}
      <div className="competition-card-actions">
        <Link className="btn btn-secondary" to={`/competition/${c.id}`}>
          View Competition
        </Link>
        {action}
      </div>
    </article>
  );
}
