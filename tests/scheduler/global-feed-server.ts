import { startFootballDataServer } from "../../scripts/feed/football-data-server";
import { FOOTBALL_DATA_PORT, FOOTBALL_DATA_TEST_TOKEN } from "./ports";

/**
 * Global setup of the scheduler tests: the local football-data.org v4 server on its fixed port (the Worker's
 * FOOTBALL_DATA_URL points at it before this runs). Tests drive it through its control API (tests/scheduler/feed-arrange.ts).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await startFootballDataServer({ port: FOOTBALL_DATA_PORT, token: FOOTBALL_DATA_TEST_TOKEN });
  return () => server.close();
}
