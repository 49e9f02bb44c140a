import type { Db } from "~/db/types";

/**
 * Everything stored about the player as JSON text (public.my_data, supabase/schemas/98_account_data.sql; keys in
 * docs/your-data.md): one function call, sent with the request's session check (one round trip), passed through
 * as the text Postgres made rather than parsed and written again.
 */
export async function myDataJson(db: Db, userId: string): Promise<string> {
  return db.asUser(userId, async (sql) => {
    const [row] = await sql<{ data: string | null }[]>`select public.my_data()::text as data`;
    if (!row?.data) throw new Error("my_data returned nothing for a signed-in player");
    return row.data;
  });
}
