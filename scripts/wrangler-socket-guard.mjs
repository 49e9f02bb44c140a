/**
 * Loaded into the `wrangler dev` process (NODE_OPTIONS=--import, by scripts/app-server.ts startWorker; decision 024).
 *
 * miniflare's local Hyperdrive proxy (miniflare 4.20260426, hyperdrive-proxy.ts) pipes the Worker's socket and the
 * database socket into each other without an 'error' handler on either, so a reset or refused connection on one
 * of them (the database restarting, workerd dropping a socket as a request ends in the middle of a fault) is an
 * uncaught exception that ends wrangler dev, and with it `npm start`. Here every socket piped into another socket
 * gets an error handler that closes both: the Worker's postgres.js sees its connection closed (a 503 page), the
 * database side is let go (so a pooler frees the server connection it held), and the process lives on.
 *
 * And both get TCP_NODELAY, which the proxy does not set (below). Production's Hyperdrive is not this proxy: this
 * only keeps local runs (npm start, the tests, the benchmarks) from paying a wait the product does not have.
 */
import net from "node:net";

const pipe = net.Socket.prototype.pipe;
let reported = 0;

net.Socket.prototype.pipe = function guardedPipe(destination, options) {
  if (destination instanceof net.Socket) {
    // PostgreSQL sends a long answer in 8 KB pieces; with Nagle's algorithm on, the proxy held the last piece until
    // the Worker's side acknowledged the ones before, which Linux delays by up to 40 ms. GET /dashboard, whose answer is 8.4 KB:
    // p50 72-81 ms -> 36-41 ms one at a time; pages under 8 KB never waited.
    this.setNoDelay(true);
    destination.setNoDelay(true);
    const closeBoth = (error) => {
      if (reported < 5 || reported % 1000 === 0) {
        console.error(`[socket-guard] a piped socket failed (${error && error.code ? error.code : error}): both ends closed`);
      }
      reported++;
      this.destroy();
      destination.destroy();
    };
    this.on("error", closeBoth);
    destination.on("error", closeBoth);
  }
  return pipe.call(this, destination, options);
};
