/**
 * Loaded into the `wrangler dev` process (NODE_OPTIONS=--import, by scripts/app-server.ts startWorker; decision 024).
 *
 * miniflare's local Hyperdrive proxy (miniflare 4.20260426, hyperdrive-proxy.ts) pipes the Worker's socket and the
 * database socket into each other without an 'error' handler on either, so a reset or refused connection on one
 * of them (the database restarting, workerd dropping a socket as a request ends in the middle of a fault) is an
 * uncaught exception that ends wrangler dev, and with it `npm start`. Here every socket piped into another socket
 * gets an error handler that closes both: the Worker's postgres.js sees its connection closed (a 503 page), the
 * database side is let go (so a pooler frees the server connection it held), and the process lives on.
 */
import net from "node:net";

const pipe = net.Socket.prototype.pipe;
let reported = 0;

net.Socket.prototype.pipe = function guardedPipe(destination, options) {
  if (destination instanceof net.Socket) {
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
