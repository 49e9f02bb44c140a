/** The printed report of `npm run db:adopt` (./adopt.ts). */
import type { AdoptReport } from "./adopt";
import { ORIGINAL_SCHEMA } from "./adopt-steps";

export function formatReport(r: AdoptReport): string {
  const lines: string[] = [];
  lines.push(
    r.state === "adopted"
      ? `Adopted the original database in ${(r.ms / 1000).toFixed(1)} s (one transaction).`
      : `Already adopted: nothing changed (${(r.ms / 1000).toFixed(1)} s). The figures of the adoption follow.`,
  );
  if (r.state === "adopted")
    lines.push(`Migrations applied: ${r.migrationsApplied}; original objects moved to ${ORIGINAL_SCHEMA}: ${r.moved.length}.`);
  lines.push(`Original migration history kept in ${ORIGINAL_SCHEMA}.schema_migrations: ${r.originalVersions.join(", ") || "(none)"}.`);
  lines.push("", "rows before (original)            rows after (current)");
  const names = [...new Set([...Object.keys(r.before), ...Object.keys(r.after)])].sort();
  for (const t of names) {
    const b = r.before[t] === undefined ? "" : String(r.before[t]);
    const a = r.after[t] === undefined ? "" : String(r.after[t]);
    const kept = r.notCarried[t] ? `  (${r.notCarried[t]} kept only in ${ORIGINAL_SCHEMA}.${t})` : "";
    lines.push(`  ${t.padEnd(22)} ${b.padStart(8)}      ${a.padStart(8)}${kept}`);
  }
  if (r.repaired?.length)
    lines.push(
      "",
      `FootyCoach migrations ${r.repaired.join(", ")} had been applied over the original tables by an earlier run: undone, then applied with the rest.`,
    );
  if (r.optionalColumns)
    lines.push("", `Columns beyond the spec's lists read from the original: ${r.optionalColumns.join(", ") || "none"}.`);
  if (r.eliminations) {
    const e = r.eliminations;
    lines.push(
      `Elimination match days: ${e.fromColumn} from user_selections.knocked_out_on, ${e.fromView} from the original knockout_leaderboard_view (${r.knockoutView ?? "absent"}),`,
      `  ${e.fromPicks} derived from the picks and results.`,
    );
  }
  if (r.newRegistrationKeys)
    lines.push(
      `Private competitions with a new registration key: ${r.newRegistrationKeys} (theirs was not 8 unambiguous letters and digits, or another's; members stay).`,
    );
  if (r.accounts) {
    const a = r.accounts;
    lines.push(
      "",
      `Accounts from auth.users: ${a.candidates} users, ${a.copied} copied (${a.rewrittenPrefix} $2b$/$2y$ hashes rewritten to $2a$),`,
      `  ${a.unconfirmed} unconfirmed (kept: they log in after confirming their e-mail) and ${a.banned} banned (kept, cannot log in: login_hold),`,
      `  ${a.needReset} need a password reset (argon2 or no password: login_hold = password_reset; they use Forgot Password),`,
      `  skipped: ${a.softDeleted} soft-deleted, ${a.duplicateEmail} e-mail already taken, ${a.noEmail} without a usable e-mail.`,
    );
  }
  return lines.join("\n");
}
