import { useState } from "react";
import { Field, SelectField } from "~/components/Field";
import { useHydrated } from "~/components/useHydrated";
import { CREATE_LEAGUES, CREATE_SEASONS, CREATE_TYPES } from "~/lib/competition-options";
import type { CompetitionFormField } from "~/lib/competition-form-fields";
import { formatDeadline } from "~/lib/date-format";

/*
 * The fields both competition-creation forms ask for, with the same labels, names and limits: the players'
 * private-competition modal (CreatePrivateCompetition, ids "create-…") and the admins' Create Competition form
 * (admin/CreateCompetitionSection, ids "cc-…"). Each form lays them out in its own grid.
 */

export function CompetitionNameField({ idPrefix, defaultValue, error }: { idPrefix: string; defaultValue?: string; error?: string }) {
  return (
    <Field
      id={`${idPrefix}-name`}
      label="Competition Name"
      name="name"
      type="text"
      required
      maxLength={100}
      autoComplete="off"
      defaultValue={defaultValue}
      error={error}
    />
  );
}

/**
 * A league and season a competition can start in, with its match days open for selection and their deadlines
 * (public.creation_match_days: "any league with a coming match day").
 */
export interface CreationChoice {
  league: string;
  season: string;
  matchDays: { matchDay: number; deadline: string }[];
}

type ChoiceField = Extract<CompetitionFormField, "type" | "league" | "season" | "startMatchDay">;

interface ChoiceProps {
  idPrefix: string;
  /** The leagues and seasons with a coming match day. */
  choices: CreationChoice[];
  values: { type?: string; league?: string; season?: string; startMatchDay?: string };
  /** Start the selects on an empty "Select …" option: the admin form chooses nothing beforehand. */
  prompt?: boolean;
  /** The types offered (default CREATE_TYPES; the admin form adds Scout). */
  types?: readonly { value: string; label: string }[];
  /** The player's zone, for the start match day's deadline. */
  timeZone: string;
  /** A refusal about one of these fields. */
  error?: { field: CompetitionFormField | null; message: string } | null;
  /** The form's grid class for Type, League and Season (Start Match Day, with its hint, takes a row of its own). */
  gridClassName: string;
}

/** In the creation lists' order (spec part 1 §5), only the ones that occur. */
const inOrder = (all: readonly string[], present: Set<string>) => [
  ...all.filter((v) => present.has(v)),
  ...[...present].filter((v) => !all.includes(v)),
];

/** "12 to 20, 22, 24 to 38" */
function matchDayRanges(days: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < days.length; i++) {
    let j = i;
    while (j + 1 < days.length && days[j + 1] === days[j] + 1) j++;
    parts.push(j === i ? String(days[i]) : `${days[i]} to ${days[j]}`);
    i = j;
  }
  return parts.join(", ");
}

/**
 * Type, League, Season and Start Match Day. The leagues and seasons offered are those with a coming match day;
 * Start Match Day is typed (so a crafted "1x" gets the spec's own message from the server) and its hint names the
 * chosen league's open match days and when the first one's selection closes. With JavaScript the seasons follow the
 * league and the start match day follows both; without it every season with a coming match day is offered and the
 * hint lists each league and season.
 */
export function CompetitionChoiceFields({ idPrefix, choices, values, prompt, types, timeZone, error, gridClassName }: ChoiceProps) {
  const hydrated = useHydrated();
  const leagues = inOrder(CREATE_LEAGUES, new Set(choices.map((c) => c.league)));
  const firstLeague = prompt ? "" : (leagues[0] ?? "");
  const [league, setLeague] = useState(values.league ?? firstLeague);
  const seasonsOf = (l: string) =>
    inOrder(CREATE_SEASONS, new Set(choices.filter((c) => !hydrated || c.league === l).map((c) => c.season)));
  const firstSeason = (l: string) => (prompt ? "" : (seasonsOf(l)[0] ?? ""));
  const [season, setSeason] = useState(values.season ?? firstSeason(league));
  const chosen = choices.find((c) => c.league === league && c.season === season) ?? null;
  const firstDay = (c: CreationChoice | null) => (c?.matchDays[0] ? String(c.matchDays[0].matchDay) : "");
  const [startMatchDay, setStartMatchDay] = useState(values.startMatchDay ?? firstDay(chosen));
  const at = (field: ChoiceField) => (error?.field === field ? error.message : undefined);

  /** A new league or season: keep the typed start match day if it is open there, else offer the first open one. */
  const choose = (nextLeague: string, nextSeason: string) => {
    const next = choices.find((c) => c.league === nextLeague && c.season === nextSeason) ?? null;
    setLeague(nextLeague);
    setSeason(nextSeason);
    if (!next?.matchDays.some((d) => String(d.matchDay) === startMatchDay.trim())) setStartMatchDay(firstDay(next));
  };

  const seasons = seasonsOf(league);
  let hint: string;
  if (choices.length === 0) hint = "No league has a coming match day to start on yet.";
  else if (!hydrated)
    hint = `Open match days: ${choices.map((c) => `${c.league} ${c.season}: ${matchDayRanges(c.matchDays.map((d) => d.matchDay))}`).join("; ")}.`;
  else if (!chosen) hint = "Choose a league and season to see their open match days.";
  else {
    const first = chosen.matchDays[0];
    hint = `Open match days: ${matchDayRanges(chosen.matchDays.map((d) => d.matchDay))}. Selection for Match Day ${first.matchDay} closes ${formatDeadline(first.deadline, timeZone)}.`;
  }

  return (
    <>
      <div className={gridClassName}>
        <SelectField
          id={`${idPrefix}-type`}
          label="Type"
          name="type"
          required
          defaultValue={values.type ?? (prompt ? "" : "knockout")}
          options={types ?? CREATE_TYPES}
          placeholder={prompt ? "Select type" : undefined}
          error={at("type")}
        />
        <SelectField
          id={`${idPrefix}-league`}
          label="League"
          name="league"
          required
          value={league}
          onChange={(event) => {
            const next = event.target.value;
            choose(next, seasonsOf(next).includes(season) ? season : firstSeason(next));
          }}
          options={leagues.includes(league) || !league ? leagues : [...leagues, league]}
          placeholder={prompt ? "Select league" : undefined}
          error={at("league")}
        />
        <SelectField
          id={`${idPrefix}-season`}
          label="Season"
          name="season"
          required
          value={season}
          onChange={(event) => choose(league, event.target.value)}
          options={seasons.includes(season) || !season ? seasons : [...seasons, season]}
          placeholder={prompt ? "Select season" : undefined}
          error={at("season")}
        />
      </div>
      {/* Digits as typed (text, not a number input), so "1x" reaches the server and gets the spec's
          "Start Match Day must be a positive whole number." instead of being dropped by the browser. */}
      <Field
        id={`${idPrefix}-start-md`}
        label="Start Match Day"
        name="startMatchDay"
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        required
        autoComplete="off"
        value={startMatchDay}
        onChange={(event) => setStartMatchDay(event.target.value)}
        hint={hint}
        error={at("startMatchDay")}
      />
    </>
  );
}

/** Start Date: today at the earliest (in the creator's zone; the server checks it again). */
export function StartDateField({
  idPrefix,
  today,
  defaultValue,
  error,
}: {
  idPrefix: string;
  today: string;
  defaultValue: string;
  error?: string;
}) {
  return (
    <Field
      id={`${idPrefix}-start-date`}
      label="Start Date"
      name="startDate"
      type="date"
      required
      min={today}
      defaultValue={defaultValue}
      error={error}
    />
  );
}
