/** private.today_in_zone: the player's calendar day, from the zone's name; unknown names count as UTC. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  db = await useTestDatabase();
});
afterAll(async () => {
  await db.close();
});

it("gives each zone's calendar day at the request clock and UTC's day for an unknown or odd name", async () => {
  // 2027-01-01 11:30 UTC: already 2 January in Kiritimati (UTC+14), still 1 January in Honolulu (UTC-10)
  const days = await db.sql.begin(async (tx) => {
    await tx`select set_config('app.now', '2027-01-01T11:30:00Z', true)`;
    return tx<{ zone: string; day: string }[]>`
      select z as zone, private.today_in_zone(z)::text as day
        from unnest(array['UTC', 'Pacific/Kiritimati', 'Pacific/Honolulu', 'America/Argentina/Buenos_Aires',
                          'Not/AZone', 'UTC+14', '', null]) with ordinality as t(z, n) order by n`;
  });
  expect(days.map((d) => d.day)).toEqual([
    "2027-01-01",
    "2027-01-02",
    "2027-01-01",
    "2027-01-01",
    "2027-01-01",
    "2027-01-01",
    "2027-01-01",
    "2027-01-01",
  ]);
});
