/**
 * Measures `npm run db:adopt` on the imitation of the hosted project (tests/support/supabase-imitation.ts) at
 * production scale: 10,000 players, 200 competitions, 100,000 picks by default (override with
 * BENCH_PLAYERS, BENCH_COMPETITIONS, BENCH_PICKS), on the imitation's "spec" variant unless BENCH_VARIANT names
 * another ("extras", "no-views": the elimination match days derived from the picks and results). Prints the seeding
 * time and the adoption's own report (time, rows per table before and after, accounts), then the time of a second,
 * no-op run.
 *
 *   npm run bench:adopt
 */
import { adopt, formatReport } from "./db/adopt";
import { connect, startPostgres } from "../tests/support/pg";
import { createSupabaseImitation, seedOriginal, type ImitationVariant } from "../tests/support/supabase-imitation";

const scale = {
  players: Number(process.env.BENCH_PLAYERS ?? 10_000),
  competitions: Number(process.env.BENCH_COMPETITIONS ?? 200),
  picks: Number(process.env.BENCH_PICKS ?? 100_000),
};

const server = await startPostgres();
try {
  if (server.kind !== "postgres") throw new Error("bench:adopt needs a real PostgreSQL server");
  const variant = (process.env.BENCH_VARIANT ?? "spec") as ImitationVariant;
  if (!["spec", "extras", "no-views"].includes(variant)) throw new Error("BENCH_VARIANT: spec, extras or no-views");
  const imitation = await createSupabaseImitation(server.url, "footy_bench_adopt", { variant });
  let t = performance.now();
  await seedOriginal(imitation.superUrl, scale);
  console.log(
    `seeded the original shape ("${variant}" variant, ${scale.players} players, ${scale.competitions} competitions, ${scale.picks} picks requested) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const sql = connect(imitation.url, { max: 1 });
  try {
    console.log(formatReport(await adopt(sql)));
    t = performance.now();
    const again = await adopt(sql);
    console.log(`\nsecond run: ${again.state}, ${again.migrationsApplied} migrations, ${((performance.now() - t) / 1000).toFixed(2)} s`);
  } finally {
    await sql.end({ timeout: 5 });
    await imitation.drop();
  }
} finally {
  await server.stop();
}
