import type { ServiceSql, ServiceTx } from "./types";

/** The statements a request has sent (for tests and the Server-Timing header). */
export interface StatementCounter {
  statements: number;
}

/**
 * Counts the statements a server-path client sends: each tagged-template or `unsafe` call is one, less the
 * fragments (a tagged template embedded in another one, as the list filters build their WHERE clauses).
 * postgres.js's own `debug` hook would count them too, but it makes every query capture a stack trace.
 */
export function counting<T extends ServiceSql | ServiceTx>(client: T, counter: StatementCounter): T {
  const made = new WeakSet<object>();
  return new Proxy(client, {
    apply(target, thisArg, args: unknown[]) {
      const query = Reflect.apply(target as (...a: unknown[]) => unknown, thisArg, args);
      if (Array.isArray(args[0]) && "raw" in args[0]) {
        counter.statements++;
        for (const arg of args) if (typeof arg === "object" && arg !== null && made.has(arg)) counter.statements--;
        if (typeof query === "object" && query !== null) made.add(query);
      }
      return query;
    },
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== "unsafe") return value;
      return (...args: unknown[]) => {
        counter.statements++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
