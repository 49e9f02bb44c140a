/**
 * The time left that a reminder states (rules file, Reminders: "closes in 5 hours" when sent 5 hours before):
 * private.reminder_time_left(deadline, now), used by private.queue_reminders with the tick's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../support/pg";

let db: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  db = await useTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

const DEADLINE = new Date("2031-03-08T14:00:00Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

async function timeLeft(left: number): Promise<string> {
  const [{ text }] = await db.sql<{ text: string }[]>`
    select private.reminder_time_left(${DEADLINE}, ${new Date(DEADLINE.getTime() - left)}) as text`;
  return text;
}

describe("private.reminder_time_left", () => {
  it("states whole hours, rounded down, from an hour up", async () => {
    expect(await timeLeft(6 * HOUR)).toBe("6 hours");
    expect(await timeLeft(5 * HOUR + 59 * MINUTE)).toBe("5 hours");
    expect(await timeLeft(5 * HOUR)).toBe("5 hours");
    expect(await timeLeft(3 * HOUR)).toBe("3 hours");
    expect(await timeLeft(2 * HOUR + 10 * MINUTE)).toBe("2 hours");
    expect(await timeLeft(1 * HOUR + 59 * MINUTE)).toBe("1 hour");
    expect(await timeLeft(1 * HOUR)).toBe("1 hour");
  });

  it("counts to the nearest minute first: a tick that starts a few seconds late still says 6 hours", async () => {
    expect(await timeLeft(6 * HOUR - 20 * SECOND)).toBe("6 hours");
    expect(await timeLeft(3 * HOUR - 29 * SECOND)).toBe("3 hours");
    expect(await timeLeft(3 * HOUR - 31 * SECOND)).toBe("2 hours");
  });

  it("states minutes under an hour", async () => {
    expect(await timeLeft(45 * MINUTE)).toBe("45 minutes");
    expect(await timeLeft(45 * MINUTE + 10 * SECOND)).toBe("45 minutes");
    expect(await timeLeft(2 * MINUTE)).toBe("2 minutes");
    expect(await timeLeft(1 * MINUTE)).toBe("1 minute");
    expect(await timeLeft(20 * SECOND)).toBe("less than a minute");
  });
});
