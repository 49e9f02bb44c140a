/**
 * For the Workers test runs' global teardown: miniflare's local Hyperdrive proxy keeps Node sockets to the test
 * database without error handlers, so when the run winds down a reset or refused connection on one of them is an
 * uncaught exception that fails a run whose tests all passed. From teardown on, only those socket errors are
 * logged instead; anything else still fails the run.
 */
const EXPECTED = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE"]);

export function tolerateProxySocketErrorsFromNowOn(): void {
  process.on("uncaughtException", (error: NodeJS.ErrnoException) => {
    if (error.code && EXPECTED.has(error.code)) {
      console.log(`[teardown] ignored a ${error.code} on a local database proxy socket after the tests`);
      return;
    }
    console.error(error);
    process.exit(1);
  });
}
