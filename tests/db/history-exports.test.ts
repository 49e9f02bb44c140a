/**
 * The CSV exports as the Worker makes them (app/models/exports.server.ts on the request's own database path, decision
 * 030): the creator's and an admin's downloads, 403 for a member who is neither and for a non-member, 404 for a crafted
 * id; UTF-8 with one header row, names as the leaderboards show them, formula cells defused; a pick whose deadline has
 * not passed is never in the file (not even an admin's, whose policy reads it); the picks are streamed in pages over a
 * cursor while the request's transaction stays open (Db.keepOpenUntil), and it ends once the stream is read.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import type { Db } from "~/db/types";
import { EXPORT_PAGE_ROWS, exportCompetitionCsv, type ExportKind } from "~/models/exports.server";
import { addMember, addPick, createCompetition, createLeague, createPlayer } from "../support/factories";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
const LEAGUE = "History Export League";
const BIG = "History Export Big League";
const SEASON = "2025/26";
const DAY = 86_400_000;
const MD1 = new Date("2027-04-03T14:00:00Z");
const NOW = new Date(MD1.getTime() + 3 * DAY); // match day 1 revealed, match day 2's deadline ahead
const ids = {} as Record<"creator" | "member" | "outsider" | "admin", string>;
let competition: string;
let big: string;

/** A request's database, signed in as `who` (a session row and its check, as the Worker's first statement). */
async function requestAs(who: string): Promise<Db> {
  const token = `export-${Math.random()}`;
  const hash = createHash("sha256").update(token).digest("hex");
  await db.sql`insert into account.sessions (id, user_id, created_at, expires_at) values (${hash}, ${who}, '2020-01-01', '2099-01-01')`;
  const request = createDb(db.url, NOW);
  expect((await request.authenticate(hash))?.id).toBe(who);
  return request;
}

async function download(who: string, competitionId: string, kind: ExportKind) {
  const request = await requestAs(who);
  const answer = await exportCompetitionCsv(request, who, competitionId, kind);
  const finished = request.finish(); // the Worker calls it as soon as the answer starts
  const text = answer.status === 200 ? await new Response(answer.body).text() : null;
  await finished;
  return { status: answer.status, filename: answer.status === 200 ? answer.filename : null, text };
}

beforeAll(async () => {
  db = await useTestDatabase();
  ids.creator = (await createPlayer(db.sql, { username: "-Organiser" })).id;
  ids.member = (await createPlayer(db.sql, { username: "ana.b" })).id;
  ids.outsider = (await createPlayer(db.sql, { username: "outsider_x" })).id;
  ids.admin = (await createPlayer(db.sql, { username: "boss_x", role: "admin" })).id;
  await createLeague(db.sql, {
    league: LEAGUE,
    season: SEASON,
    matchDays: 3,
    firstKickoff: MD1,
    pairs: [
      ["Ajax", "Bolton"],
      ["Celtic", "Derby"],
    ],
  });
  await db.sql`update public.fixtures set home_score = 2, away_score = 1, result = 'home_win', status = 'complete'
                where league = ${LEAGUE} and match_day = 1`;

  competition = (
    await createCompetition(db.sql, {
      name: 'Friday "Five", Office',
      type: "season",
      league: LEAGUE,
      season: SEASON,
      visibility: "private",
      createdBy: ids.creator,
      currentMatchDay: 2,
      registrationStatus: "closed",
    })
  ).id;
  for (const who of ["creator", "member"] as const) await addMember(db.sql, competition, ids[who], { matchDay: 1 });
  for (const [who, md, team] of [
    ["creator", 1, "Ajax"],
    ["member", 1, "Derby"],
    ["creator", 2, "Bolton"], // hidden until match day 2's deadline
    ["member", 2, "Celtic"], // hidden
  ] as const)
    await addPick(db.sql, { userId: ids[who], competitionId: competition, matchDay: md, team });

  // A season competition with more picks than one page of the cursor: 1,100 players x 2 match days, both played.
  await createLeague(db.sql, {
    league: BIG,
    season: SEASON,
    matchDays: 3,
    firstKickoff: new Date(MD1.getTime() - 14 * DAY),
    pairs: [["Ajax", "Bolton"]],
  });
  await db.sql`update public.fixtures set home_score = 2 - match_day, away_score = 0, status = 'complete',
                       result = case when match_day = 1 then 'home_win' else 'draw' end
                where league = ${BIG} and match_day in (1, 2)`;
  big = (await createCompetition(db.sql, { type: "season", league: BIG, season: SEASON, currentMatchDay: 3 })).id;
  await db.sql`insert into account.accounts (email, password_hash) select 'many' || g || '@example.test', 'x' from generate_series(1, 1100) g`;
  await db.sql`insert into public.profiles (id, username, date_of_birth, gender)
               select id, 'many_' || lpad(split_part(split_part(email, '@', 1), 'many', 2), 4, '0'), '1990-01-01', 'male'
                 from account.accounts where email like 'many%'`;
  await db.sql`insert into public.user_selections (user_id, competition_id, match_day)
               select id, ${big}, 1 from public.profiles where username like 'many\\_%'`;
  await db.sql`insert into public.team_selections (user_id, competition_id, match_day, fixture_id, selected_team)
               select us.user_id, ${big}, f.match_day, f.id, f.home_team
                 from public.user_selections us
                 join public.fixtures f on f.league = ${BIG} and f.match_day in (1, 2) and f.home_team = 'Ajax'
                where us.competition_id = ${big}`;
});

afterAll(async () => {
  await db?.close();
});

describe("CSV exports", () => {
  it("gives the creator the picks of revealed match days, names as players see them, never a hidden pick", async () => {
    const { status, filename, text } = await download(ids.creator, competition, "picks");
    expect(status).toBe(200);
    expect(filename).toBe("friday-five-office-picks.csv");
    expect(text).toBe(
      [
        "Match Day,Player,Team,Match,Score,Result",
        "1,'-Organiser,Ajax,Ajax v Bolton,2-1,Won", // a name that would run as a formula is defused
        "1,ana.b,Derby,Celtic v Derby,2-1,Lost",
        "",
      ].join("\r\n"),
    );
  });

  it("keeps the hidden picks out of an admin's file too, though the admin's own policy reads them", async () => {
    const { text } = await download(ids.admin, competition, "picks");
    expect(text!.split("\r\n").filter((l) => l.startsWith("2,"))).toEqual([]);
    expect(text).toContain("1,ana.b,Derby,");
    const hidden = await db.sql`select 1 from public.team_selections where competition_id = ${competition} and match_day = 2`;
    expect(hidden).toHaveLength(2);
  });

  it("gives the standings with one header row, numbers as numbers (a negative goal difference too)", async () => {
    const { status, filename, text } = await download(ids.admin, competition, "standings");
    expect(status).toBe(200);
    expect(filename).toBe("friday-five-office-standings.csv");
    expect(text!.split("\r\n")).toEqual([
      "Rank,Player,Won,Drawn,Lost,Goals For,Goals Against,Goal Difference,Points",
      "1,'-Organiser,1,0,0,2,1,1,3",
      "2,ana.b,0,0,1,1,2,-1,0",
      "",
    ]);
  });

  it("answers 403 to a member who is not the creator and to a non-member, 404 to a crafted id", async () => {
    for (const kind of ["picks", "standings"] as const) {
      expect((await download(ids.member, competition, kind)).status).toBe(403);
      expect((await download(ids.outsider, competition, kind)).status).toBe(403);
      expect((await download(ids.creator, "00000000-0000-4000-8000-000000000000", kind)).status).toBe(404);
    }
  });

  it("streams a file of several pages, in order, and ends the request's transaction after the last", async () => {
    const request = await requestAs(ids.admin);
    const answer = await exportCompetitionCsv(request, ids.admin, big, "picks");
    if (answer.status !== 200) throw new Error(`status ${answer.status}`);
    let finished = false;
    const finishing = request.finish().then(() => (finished = true));
    const reader = answer.body.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
      if (chunks === 1) expect(finished).toBe(false); // the transaction waits for the stream
    }
    await finishing;
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + 2 * 1100);
    expect(chunks).toBeGreaterThan(1);
    expect(lines.length - 1).toBeGreaterThan(EXPORT_PAGE_ROWS);
    expect(lines[1]).toBe("1,many_0001,Ajax,Ajax v Bolton,1-0,Won");
    expect(lines[1101]).toBe("2,many_0001,Ajax,Ajax v Bolton,0-0,Drawn");
    expect(lines.at(-1)).toBe("2,many_1100,Ajax,Ajax v Bolton,0-0,Drawn");
  });
});
