/**
 * The push subscription functions (migration 20261124130000): save_push_subscription,
 * delete_push_subscription and disable_notifications, run as the player under row-level security; at most 10
 * subscriptions per player (migration 20261125120000); endpoints only on a known push service's host, checked
 * again here for calls that skip the save-subscription function (migration 20261125120100).
 */
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/request-db.server";
import { PUSH_SERVICES } from "~/lib/push-services";
import { savePushSubscription, type SaveSubscriptionBody } from "~/models/push.server";
import { createAccount, createPlayer } from "../support/factories";
import { asUser, connect, errorCode, useTestDatabase } from "../support/pg";
import { itOnRealPostgres } from "../support/real-postgres";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
const ids = {} as Record<"alice" | "bob" | "ghost", string>;
const KEYS = { p256dh: "BAeg2tB4osuky88kT3nSfEOlnGyW5BI2Arbtbjhbwl2od1xCPi1usz1YYxYjDMddhoGVqYADcXe2Xeq9bxZrGH4", auth: "c2VjcmV0" };

const saveWebPush = (caller: string | null, endpoint: string, keys = KEYS, now?: Date) =>
  asUser(
    db.sql,
    caller,
    (tx) => tx`select public.save_push_subscription('webpush', ${endpoint}, ${keys.p256dh}, ${keys.auth}, null) as r`,
    {
      now,
    },
  );
const saveFcm = (caller: string | null, token: string, now?: Date) =>
  asUser(db.sql, caller, (tx) => tx`select public.save_push_subscription('fcm', null, null, null, ${token}) as r`, { now });
const remove = (caller: string, endpoint: string | null, token: string | null) =>
  asUser(
    db.sql,
    caller,
    async (tx) => (await tx<{ r: string }[]>`select public.delete_push_subscription(${endpoint}, ${token}) as r`)[0].r,
  );

const rows = (userId: string) =>
  db.sql<{ kind: string; endpoint: string | null; fcm_token: string | null; p256dh: string | null }[]>`
    select kind, endpoint, fcm_token, p256dh from public.push_subscriptions where user_id = ${userId} order by created_at, id`;
const profile = async (userId: string) =>
  (
    await db.sql<{ enabled: boolean; token: string | null; at: Date | null }[]>`
      select notifications_enabled as enabled, fcm_token as token, fcm_token_updated_at as at from public.profiles where id = ${userId}`
  )[0];

beforeAll(async () => {
  db = await useTestDatabase();
  ids.alice = (await createPlayer(db.sql, { username: "PushAlice" })).id;
  ids.bob = (await createPlayer(db.sql, { username: "PushBob" })).id;
  ids.ghost = (await createAccount(db.sql, { email: "push-ghost@example.test" })).id;
});

afterAll(async () => {
  await db?.close();
});

describe("save_push_subscription", () => {
  it("saves a Web Push subscription once (idempotent) and turns notifications on", async () => {
    await saveWebPush(ids.alice, "https://fcm.googleapis.com/fcm/send/a1");
    await saveWebPush(ids.alice, "https://fcm.googleapis.com/fcm/send/a1");
    expect(await rows(ids.alice)).toEqual([
      { kind: "webpush", endpoint: "https://fcm.googleapis.com/fcm/send/a1", fcm_token: null, p256dh: KEYS.p256dh },
    ]);
    expect((await profile(ids.alice)).enabled).toBe(true);
  });

  it("moves a subscription to the player who saves it now (same browser, other account), with new keys", async () => {
    await saveWebPush(ids.bob, "https://fcm.googleapis.com/fcm/send/a1", { p256dh: "BNEW", auth: "bmV3" });
    expect(await rows(ids.alice)).toEqual([]);
    expect(await rows(ids.bob)).toEqual([
      { kind: "webpush", endpoint: "https://fcm.googleapis.com/fcm/send/a1", fcm_token: null, p256dh: "BNEW" },
    ]);
  });

  it("keeps an FCM token on the profile with its time, which changes only with the token", async () => {
    const t1 = new Date("2026-11-01T10:00:00Z");
    await saveFcm(ids.alice, "tok-1", t1);
    expect(await profile(ids.alice)).toEqual({ enabled: true, token: "tok-1", at: t1 });
    await saveFcm(ids.alice, "tok-1", new Date("2026-11-02T10:00:00Z"));
    expect((await profile(ids.alice)).at).toEqual(t1);
    const t3 = new Date("2026-11-09T10:00:00Z");
    await saveFcm(ids.alice, "tok-2", t3);
    expect(await profile(ids.alice)).toEqual({ enabled: true, token: "tok-2", at: t3 });
    // Bob's browser takes tok-2 over: it leaves Alice's profile too.
    await saveFcm(ids.bob, "tok-2", t3);
    expect((await profile(ids.alice)).token).toBeNull();
    expect((await rows(ids.alice)).map((r) => r.fcm_token)).toEqual(["tok-1"]);
    expect((await profile(ids.bob)).token).toBe("tok-2");
  });

  it("refuses bad values, no identity and a caller without a profile, writing nothing", async () => {
    expect(await errorCode(saveWebPush(ids.alice, "http://push.example.test/plain"))).toBe("22023");
    expect(await errorCode(saveWebPush(ids.alice, "https://fcm.googleapis.com/fcm/send/k", { p256dh: "", auth: "x" }))).toBe("22023");
    expect(await errorCode(asUser(db.sql, ids.alice, (tx) => tx`select public.save_push_subscription('sms', null, null, null, 'x')`))).toBe(
      "22023",
    );
    expect(await errorCode(saveWebPush(null, "https://fcm.googleapis.com/fcm/send/n"))).toBe("28000");
    expect(await errorCode(saveWebPush(ids.ghost, "https://fcm.googleapis.com/fcm/send/g"))).toBe("P0002");
    const [{ n }] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from public.push_subscriptions where endpoint in ('http://push.example.test/plain', 'https://fcm.googleapis.com/fcm/send/n', 'https://fcm.googleapis.com/fcm/send/g', 'https://fcm.googleapis.com/fcm/send/k')`;
    expect(n).toBe(0);
  });

  it("is not callable by anon, and players cannot write the table directly", async () => {
    expect(
      await errorCode(
        asUser(db.sql, null, (tx) => tx`select public.save_push_subscription('fcm', null, null, null, 'x')`, { role: "anon" }),
      ),
    ).toBe("42501");
    expect(
      await errorCode(
        asUser(
          db.sql,
          ids.alice,
          (tx) => tx`insert into public.push_subscriptions (user_id, kind, fcm_token) values (${ids.bob}, 'fcm', 'sneaky')`,
        ),
      ),
    ).toBe("42501");
  });
});

describe("delete_push_subscription and disable_notifications", () => {
  it("deletes only the caller's own subscription", async () => {
    expect(await remove(ids.alice, "https://fcm.googleapis.com/fcm/send/a1", null)).toBe("not_found");
    expect(await rows(ids.bob)).toHaveLength(2);
    expect(await remove(ids.bob, "https://fcm.googleapis.com/fcm/send/a1", null)).toBe("deleted");
    expect(await remove(ids.bob, null, "tok-2")).toBe("deleted");
    expect((await profile(ids.bob)).token).toBeNull();
    expect(await errorCode(remove(ids.bob, null, null))).toBe("22023");
  });

  it("disable_notifications removes every subscription of the caller and turns notifications off", async () => {
    await saveWebPush(ids.alice, "https://fcm.googleapis.com/fcm/send/a2");
    await saveWebPush(ids.bob, "https://fcm.googleapis.com/fcm/send/b2");
    await asUser(db.sql, ids.alice, (tx) => tx`select public.disable_notifications()`);
    expect(await rows(ids.alice)).toEqual([]);
    expect(await profile(ids.alice)).toEqual({ enabled: false, token: null, at: null });
    expect(await rows(ids.bob)).toHaveLength(1);
  });
});

describe("at most 10 subscriptions per player (rules file, Reminders)", () => {
  const endpoint = (who: string, n: number) => `https://fcm.googleapis.com/fcm/send/${who}-${n}`;
  const minute = (n: number) => new Date(Date.UTC(2026, 10, 10, 10, n));

  it("the 11th save removes the oldest in the same save; a re-save or an FCM token counts like any other", async () => {
    const carol = (await createPlayer(db.sql, { username: "PushCarol" })).id;
    for (let n = 1; n <= 10; n++) await saveWebPush(carol, endpoint("carol", n), KEYS, minute(n));
    expect(await rows(carol)).toHaveLength(10);

    await saveWebPush(carol, endpoint("carol", 11), KEYS, minute(11));
    const kept = (await rows(carol)).map((r) => r.endpoint);
    expect(kept).toEqual(Array.from({ length: 10 }, (_, i) => endpoint("carol", i + 2)));

    // Saving one she already has adds nothing, so nothing goes.
    await saveWebPush(carol, endpoint("carol", 2), KEYS, minute(12));
    expect((await rows(carol)).map((r) => r.endpoint)).toEqual(kept);

    // An FCM token is a subscription too: the oldest Web Push one (2) makes room.
    await saveFcm(carol, "carol-token", minute(13));
    const after = await rows(carol);
    expect(after).toHaveLength(10);
    expect(after.map((r) => r.endpoint ?? r.fcm_token)).toEqual([...kept.slice(1), "carol-token"]);
  });

  it("a browser that moves to a player with 10 is kept; that player's oldest goes", async () => {
    const erin = (await createPlayer(db.sql, { username: "PushErin" })).id;
    const frank = (await createPlayer(db.sql, { username: "PushFrank" })).id;
    await saveWebPush(frank, endpoint("shared", 1), KEYS, minute(0)); // older than all of Erin's
    for (let n = 1; n <= 10; n++) await saveWebPush(erin, endpoint("erin", n), KEYS, minute(n));

    await saveWebPush(erin, endpoint("shared", 1), KEYS, minute(20));
    const kept = (await rows(erin)).map((r) => r.endpoint);
    expect(kept).toHaveLength(10);
    expect(kept).toContain(endpoint("shared", 1));
    expect(kept).not.toContain(endpoint("erin", 1));
    expect(await rows(frank)).toEqual([]);
  });

  itOnRealPostgres("two saves at once for a player with 9 leave 10: the second waits for the first", async () => {
    const gina = (await createPlayer(db.sql, { username: "PushGina" })).id;
    for (let n = 1; n <= 9; n++) await saveWebPush(gina, endpoint("gina", n), KEYS, minute(n));
    const save = (n: number) => (tx: postgres.TransactionSql) =>
      tx`select public.save_push_subscription('webpush', ${endpoint("gina", n)}, ${KEYS.p256dh}, ${KEYS.auth}, null)`;
    const one = connect(db.url, { max: 1 });
    const two = connect(db.url, { max: 1 });
    try {
      // The first save stays uncommitted until released; without a per-player lock the second would not see its
      // row, keep its own (10 by its count), and both commits would leave 11.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let firstSaved!: () => void;
      const saved = new Promise<void>((resolve) => (firstSaved = resolve));
      const first = asUser(one, gina, async (tx) => {
        await save(10)(tx);
        firstSaved();
        await held;
      });
      await saved;
      const second = asUser(two, gina, save(11));
      const waited = await Promise.race([second.then(() => false), new Promise((r) => setTimeout(() => r(true), 500))]);
      release();
      await Promise.all([first, second]);
      const kept = (await rows(gina)).map((r) => r.endpoint);
      expect(kept).toHaveLength(10);
      expect(kept).not.toContain(endpoint("gina", 1));
      expect(waited).toBe(true);
    } finally {
      await Promise.all([one.end({ timeout: 5 }), two.end({ timeout: 5 })]);
    }
  });
});

describe("the database's own endpoint check (for calls that skip save-subscription, such as the RPC API)", () => {
  let hana: string;
  beforeAll(async () => {
    hana = (await createPlayer(db.sql, { username: "PushHana" })).id;
  });

  it("accepts every push service's host as app/lib/push-services.ts lists them", async () => {
    for (const s of PUSH_SERVICES) {
      const host = s.subdomains ? `wns2-par02p.eu.${s.host}` : s.host;
      for (const endpoint of [`https://${host}/send/${s.host}`, `https://${host}:443/p/${s.host}`, `https://${host}?token=${s.host}`]) {
        const [{ r }] = await saveWebPush(hana, endpoint);
        expect(r, endpoint).toBe("saved");
      }
    }
  });

  it("refuses IP literals, other hosts, userinfo, other ports and odd spellings, writing nothing", async () => {
    const refused = [
      "https://127.0.0.1/wp/x",
      "https://[::1]/wp/x",
      "https://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/push",
      "https://2130706433/wp/x",
      "https://0x7f000001/wp/x",
      "https://evil.example/push",
      "https://fcm.googleapis.com.evil.example/fcm/send/x",
      "https://evilfcm.googleapis.com/fcm/send/x",
      "https://notify.windows.com/w/",
      "https://evil.com\\@fcm.googleapis.com/fcm/send/x",
      "https://user:pass@fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com@evil.example/x",
      "https://fcm.googleapis.com:8443/fcm/send/x",
      "https://FCM.googleapis.com/fcm/send/x",
      "https://fcm%2Egoogleapis.com/fcm/send/x",
      "https://fcm.googleapis.com./fcm/send/x",
      "https://fcm.googleapis.com/fcm/send/with space",
    ];
    for (const endpoint of refused) expect(await errorCode(saveWebPush(hana, endpoint)), endpoint).toBe("22023");
    const [{ n }] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from public.push_subscriptions where endpoint = any(${refused})`;
    expect(n).toBe(0);
  });

  it("savePushSubscription reads the database's refusal as an invalid subscription (a 400), not an error", async () => {
    const hash = "e".repeat(64);
    await db.sql`insert into account.sessions (id, user_id, created_at, expires_at) values (${hash}, ${hana}, '2020-01-01', '2099-01-01')`;
    const server = createDb(db.url, new Date());
    expect((await server.authenticate(hash))?.id).toBe(hana);
    // A body the function's own checks would refuse first, passed straight in: only the database stands in the way.
    const body = { subscription: { endpoint: "https://evil.example/x", keys: KEYS } } as SaveSubscriptionBody;
    expect(await savePushSubscription(server, hana, body)).toBe("invalid");
    await server.finish();
  });
});
