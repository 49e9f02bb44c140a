/** Polls until `check` returns a value (not undefined) or the time is up (for work that finishes on its own: queues). */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 200));
  }
}
