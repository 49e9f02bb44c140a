/** Values shared by the e2e setup and the specs. */
export const E2E = {
  measurementId: "G-E2ETEST01",
  // Nothing listens here: specs intercept it, so a request to it proves analytics was loaded.
  analyticsScriptUrl: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8799) + 1}/gtag/js`,
  password: "footycoach",
  // A Web Push application server public key (P-256) for the test Worker: the browser subscribes with it.
  // Its private half was thrown away: pushes in tests are delivered through CDP (tests/e2e/push.spec.ts).
  vapidPublicKey: "BAeg2tB4osuky88kT3nSfEOlnGyW5BI2Arbtbjhbwl2od1xCPi1usz1YYxYjDMddhoGVqYADcXe2Xeq9bxZrGH4",
};
