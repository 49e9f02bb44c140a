/** Fixed local ports of the scheduler tests' services (miniflare's bindings are fixed before global setup). */
// Below the ephemeral range (32768 and up), so an outgoing connection never holds one of them.
export const SCHEDULER_DB_PORT = 29398;
export const SCHEDULER_DB_NAME = "footy_scheduler";
export const WEB_PUSH_SERVER_PORT = 29397;
export const FCM_SERVER_PORT = 29396;
export const FCM_TEST_PROJECT = "footycoach-test";
/** The local football-data.org v4 server (scripts/feed/football-data-server.ts) the feed job reads. */
export const FOOTBALL_DATA_PORT = 29395;
export const FOOTBALL_DATA_TEST_TOKEN = "scheduler-test-token-0123456789";
