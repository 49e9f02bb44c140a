/** Fixed local ports of the scheduler tests' services (miniflare's bindings are fixed before global setup). */
// Below the ephemeral range (32768 and up), so an outgoing connection never holds one of them.
export const SCHEDULER_DB_PORT = 29398;
export const SCHEDULER_DB_NAME = "footy_scheduler";
export const WEB_PUSH_SERVER_PORT = 29397;
export const FCM_SERVER_PORT = 29396;
export const FCM_TEST_PROJECT = "footycoach-test";
