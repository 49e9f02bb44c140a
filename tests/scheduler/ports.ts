/** Fixed local ports of the scheduler tests' services (miniflare's bindings are fixed before global setup). */
export const SCHEDULER_DB_PORT = 54398;
export const SCHEDULER_DB_NAME = "footy_scheduler";
export const WEB_PUSH_SERVER_PORT = 54397;
export const FCM_SERVER_PORT = 54396;
export const FCM_TEST_PROJECT = "footycoach-test";
