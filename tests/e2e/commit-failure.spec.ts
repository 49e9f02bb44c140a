/**
 * A write whose COMMIT fails is never answered as saved (issue 18, item 1): the pick page shows the spec's
 * failure text with status 503 and no success toast, and save-subscription answers 503; nothing is stored.
 * The COMMIT is made to fail by a deferred constraint trigger (as Scout scoring runs at COMMIT) that raises
 * for rows of this test only.
 */
import { db, expect, test } from "./fixtures";
import { arrangeCompetition, fixturesOf } from "./arrange";

/** Makes every COMMIT that wrote a row of `table` whose `column` is `value` fail, for the test that asks. */
async function refuseAtCommit(table: "team_selections" | "push_subscriptions", column: string, value: string) {
  await db().begin(async (sql) => {
    // Both browser projects may run this at once: one at a time.
    await sql`select pg_advisory_xact_lock(hashtext('e2e_refuse_at_commit'))`;
    await sql.unsafe(`
      create table if not exists public.e2e_refuse_at_commit (tbl text not null, col text not null, val text not null);
      create or replace function public.e2e_refuse_at_commit() returns trigger
        language plpgsql security definer set search_path = '' as $$
      begin
        if exists (select 1 from public.e2e_refuse_at_commit r
                    where r.tbl = tg_table_name and r.val = to_jsonb(new) ->> r.col) then
          raise exception 'e2e: refused at commit';
        end if;
        return new;
      end $$;
      drop trigger if exists ${table}_e2e_refuse_at_commit on public.${table};
      create constraint trigger ${table}_e2e_refuse_at_commit after insert or update on public.${table}
        deferrable initially deferred for each row execute function public.e2e_refuse_at_commit();`);
    await sql`insert into public.e2e_refuse_at_commit (tbl, col, val) values (${table}, ${column}, ${value})`;
  });
}

test("a pick whose COMMIT fails shows 'Failed to save team selection.' (503), never the success toast", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  const competition = await arrangeCompetition({ namePrefix: "Commit ", createdBy: me.id, members: [me.id] });
  const [fixture] = await fixturesOf(competition.matchDay);
  await refuseAtCommit("team_selections", "competition_id", competition.id);

  await page.goto(`/select-team/${competition.id}`);
  await page.getByRole("main").getByRole("button", { name: fixture.home_team, exact: true }).click();
  const answer = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(`/select-team/${competition.id}`));
  await page.getByRole("dialog", { name: "Confirm Your Selection" }).getByRole("button", { name: "Yes" }).click();
  expect((await answer).status()).toBe(503);

  await expect(page.getByRole("alert").filter({ hasText: "Failed to save team selection." })).toBeVisible();
  await expect(page.getByText("Team selection saved successfully!")).toHaveCount(0);
  await expect(page.getByTestId("current-selection")).toHaveText("--");
  const saved = await db()`select 1 from public.team_selections where competition_id = ${competition.id}`;
  expect(saved).toHaveLength(0);
});

test("save-subscription answers 503 when its COMMIT fails, and keeps nothing", async ({ page, loginAs }) => {
  const me = await loginAs("player");
  await refuseAtCommit("push_subscriptions", "user_id", me.id);
  const token = `e2e-commit-${Date.now().toString(36)}`;
  const res = await page.request.post("/functions/v1/save-subscription", {
    headers: { Origin: new URL(page.url() === "about:blank" ? test.info().project.use.baseURL! : page.url()).origin },
    data: { type: "fcm", fcmToken: token },
  });
  expect(res.status()).toBe(503);
  expect(await res.json()).toEqual({ error: "The service is temporarily unavailable." });
  const saved = await db()`select 1 from public.push_subscriptions where user_id = ${me.id}`;
  expect(saved).toHaveLength(0);
});
