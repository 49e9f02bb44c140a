/**
 * Usernames and display names are one namespace (rules file, Accounts): nobody may take another account's
 * username or display name as their own username or display name, compared case-insensitively after trimming,
 * so nobody can appear on a Scout leaderboard as somebody else. A player's own two names may be the same. The
 * report: a player took "DemoPlayer", "demoplayer" or " DemoPlayer " as a display name and showed as DemoPlayer.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import type { ProfileInput } from "~/lib/validation";
import { getOwnProfile, saveProfile } from "~/models/profile.server";
import { createPlayer, type Sql } from "../support/factories";
import { asUser, connect, useTestDatabase } from "../support/pg";
import { itOnRealPostgres } from "../support/real-postgres";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
let sql: Sql;

beforeAll(async () => {
  db = await useTestDatabase();
  sql = db.sql;
});

afterAll(async () => {
  await db?.close();
});

type Names = { username?: string; display_name?: string | null };

/** Saves names as the player does (their own row, under row-level security). */
const save = (userId: string, names: Names, client: Sql = sql) =>
  asUser(client, userId, (tx) => tx`update public.profiles set ${tx(names as Record<string, unknown>)} where id = ${userId}`);

/** What a refused save reports: SQLSTATE and the constraint that names the taken field. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "saved";
  } catch (error) {
    const e = error as { code?: string; constraint_name?: string; message?: string };
    return `${e.code}:${e.constraint_name ?? ""}:${e.message}`;
  }
}

const USERNAME_TAKEN = "23505:profiles_username_taken:Username is already taken.";
const DISPLAY_NAME_TAKEN = "23505:profiles_display_name_taken:Display name is already taken.";

const namesOf = async (userId: string) => (await sql<Names[]>`select username, display_name from public.profiles where id = ${userId}`)[0];

describe("one namespace for usernames and display names", () => {
  it("keeps the names of deleted players for them: no live player passes for one (issue 33)", async () => {
    const player = await createPlayer(sql, { username: "Impostor" });
    for (const name of ["Deleted player 7F3K", "deleted player", "DELETED PLAYER AB2C"]) {
      expect(await refusal(save(player.id, { display_name: name })), name).toBe(DISPLAY_NAME_TAKEN);
    }
    expect((await namesOf(player.id)).display_name).toBeNull();
    // A name that only mentions it is anyone's.
    expect(await refusal(save(player.id, { display_name: "Player once deleted" }))).toBe("saved");
  });

  it("refuses another account's username as a display name, in any case, padded, full-width or with invisible characters", async () => {
    await createPlayer(sql, { username: "DemoPlayer" });
    const other = await createPlayer(sql, { username: "Copycat" });
    for (const name of [
      "DemoPlayer",
      "demoplayer",
      "DEMOPLAYER",
      "\u00a0DemoPlayer\u3000", // no-break and ideographic spaces (the form trims; SQL must too)
      "\uff24\uff45\uff4d\uff4f\uff30\uff4c\uff41\uff59\uff45\uff52", // full-width letters, shown alike
      "Demo\u200bPlayer", // a zero-width space inside
    ]) {
      expect(await refusal(save(other.id, { display_name: name })), JSON.stringify(name)).toBe(DISPLAY_NAME_TAKEN);
    }
    expect(await namesOf(other.id)).toEqual({ username: "Copycat", display_name: null });
  });

  it("refuses another account's display name as a username or a display name", async () => {
    const owner = await createPlayer(sql, { username: "GafferOwner" });
    expect(await refusal(save(owner.id, { display_name: "The Gaffer" }))).toBe("saved");
    const other = await createPlayer(sql, { username: "SecondFan" });
    expect(await refusal(save(other.id, { display_name: "the gaffer" }))).toBe(DISPLAY_NAME_TAKEN);
    // Letters beyond ASCII are compared case-insensitively too.
    expect(await refusal(save(owner.id, { display_name: "Éric Cantona" }))).toBe("saved");
    expect(await refusal(save(other.id, { display_name: "éRIC CANTONA" }))).toBe(DISPLAY_NAME_TAKEN);
    expect(await refusal(save(owner.id, { display_name: "Gaffer9" }))).toBe("saved");
    expect(await refusal(save(other.id, { username: "GAFFER9" }))).toBe(USERNAME_TAKEN);
    // A new profile is checked as well.
    await expect(createPlayer(sql, { username: "gaffer9" })).rejects.toMatchObject({ code: "23505" });
  });

  it("refuses another account's username as a username, in any case (as before), saying which field", async () => {
    await createPlayer(sql, { username: "Original" });
    const other = await createPlayer(sql, { username: "Another" });
    expect((await refusal(save(other.id, { username: "ORIGINAL" }))).startsWith("23505:")).toBe(true);
  });

  it("says which field when both are taken: the username first", async () => {
    await createPlayer(sql, { username: "BothOne" });
    const two = await createPlayer(sql, { username: "BothTwo" });
    const three = await createPlayer(sql, { username: "BothThree" });
    expect(await refusal(save(two.id, { display_name: "BothDisplay" }))).toBe("saved");
    // The username is another's display name, the display name another's username.
    const e = await refusal(save(three.id, { username: "bothdisplay", display_name: "bothone" }));
    expect(e).toMatch(/^23505:profiles_username_taken:/);
  });

  it("lets a player's own username and display name be the same, in any case", async () => {
    const me = await createPlayer(sql, { username: "SelfSame" });
    for (const name of ["SelfSame", "selfsame", "SELFSAME"]) expect(await refusal(save(me.id, { display_name: name }))).toBe("saved");
    expect(await refusal(save(me.id, { username: "selfSAME", display_name: "SelfSame" }))).toBe("saved");
  });

  it("frees a name when its owner changes it", async () => {
    const first = await createPlayer(sql, { username: "Renamer" });
    const second = await createPlayer(sql, { username: "Waiting" });
    expect(await refusal(save(first.id, { display_name: "Old Display" }))).toBe("saved");
    // One username against another: the older unique index answers first (the form reads it as the username).
    expect(await refusal(save(second.id, { username: "renamer" }))).toMatch(/^23505:profiles_username_(taken|lower_key):/);
    expect(await refusal(save(first.id, { username: "Renamed", display_name: null }))).toBe("saved");
    expect(await refusal(save(second.id, { username: "renamer", display_name: "old display" }))).toBe("saved");
    expect(await namesOf(second.id)).toEqual({ username: "renamer", display_name: "old display" });
  });

  itOnRealPostgres("two simultaneous saves of one name: one wins, the other is refused (real PostgreSQL only)", async () => {
    const a = await createPlayer(sql, { username: "RacerA" });
    const b = await createPlayer(sql, { username: "RacerB" });
    const [c1, c2] = [connect(db.url, { max: 1 }), connect(db.url, { max: 1 })];
    try {
      let saved!: () => void;
      let commit!: () => void;
      const firstSaved = new Promise<void>((resolve) => (saved = resolve));
      const committing = new Promise<void>((resolve) => (commit = resolve));
      // A's display name is written but not yet committed when B saves the same name as a username.
      const first = asUser(c1, a.id, async (tx) => {
        await tx`update public.profiles set display_name = 'Clash' where id = ${a.id}`;
        saved();
        await committing;
      });
      await firstSaved;
      const second = refusal(save(b.id, { username: "clash" }, c2));
      await new Promise((resolve) => setTimeout(resolve, 300));
      commit();
      await first;
      expect(await second).toBe(USERNAME_TAKEN);
      expect(await namesOf(a.id)).toEqual({ username: "RacerA", display_name: "Clash" });
      expect(await namesOf(b.id)).toEqual({ username: "RacerB", display_name: null });
    } finally {
      await Promise.all([c1.end({ timeout: 5 }), c2.end({ timeout: 5 })]);
    }
  });
});

describe("the profile form's save (app/models/profile.server.ts saveProfile)", () => {
  /** A request's Db signed in as the user, as the Worker makes one. */
  async function signedIn(userId: string) {
    const hash = createHash("sha256").update(`token-${userId}-${Math.random()}`).digest("hex");
    await sql`insert into account.sessions (id, user_id, expires_at) values (${hash}, ${userId}, now() + interval '1 day')`;
    const server = createDb(db.url, new Date());
    expect((await server.authenticate(hash))?.id).toBe(userId);
    return server;
  }

  const input = (username: string, displayName: string | null): ProfileInput => ({
    username,
    displayName,
    dateOfBirth: "1990-01-01",
    gender: "prefer-not-to-say",
    genderSelfDescribe: null,
    timeZone: "UTC",
  });

  it("says which name is taken, and the request can still read (the page shows the form again)", async () => {
    await createPlayer(sql, { username: "FormOwner" });
    const me = await createPlayer(sql, { username: "FormUser" });

    const server = await signedIn(me.id);
    expect(await saveProfile(server, me.id, input("FormUser", "formowner"))).toEqual({
      ok: false,
      field: "displayName",
      message: "Display name is already taken.",
      status: 409,
    });
    // The refused save left the request's transaction usable: the page's loader reads after the action.
    expect(await getOwnProfile(server, me.id)).toMatchObject({ username: "FormUser", displayName: null });
    expect(await saveProfile(server, me.id, input("FORMOWNER", null))).toEqual({
      ok: false,
      field: "username",
      message: "Username is already taken.",
      status: 409,
    });
    await server.finish();
    expect(await namesOf(me.id)).toEqual({ username: "FormUser", display_name: null });

    const next = await signedIn(me.id);
    expect(await saveProfile(next, me.id, input("FormUser", "formuser"))).toEqual({ ok: true });
    await next.finish();
    expect(await namesOf(me.id)).toEqual({ username: "FormUser", display_name: "formuser" });
  });
});
