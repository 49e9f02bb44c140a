/** Values shared by the e2e setup and the specs. */
export const E2E = {
  measurementId: "G-E2ETEST01",
  // Nothing listens here: specs intercept it, so a request to it proves analytics was loaded.
  analyticsScriptUrl: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8799) + 1}/gtag/js`,
  password: "footycoach",
};
