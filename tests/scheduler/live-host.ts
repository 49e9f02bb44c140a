/**
 * The web Worker's LiveMatchDay class as the scheduler tests host it (vitest.scheduler.config.ts): an auxiliary
 * Worker named footycoach-web, so the scheduler's `LIVE` binding (script_name = "footycoach-web") reaches the real
 * object class in the same workerd. Only the class: the rest of the web Worker needs the Remix build.
 */
export { LiveMatchDay } from "../../workers/web/live";

export default {
  fetch(): Response {
    return new Response("the live match-day objects of the scheduler tests", { status: 404 });
  },
};
