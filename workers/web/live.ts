import { DurableObject } from "cloudflare:workers";

export { liveObjectName, type LiveKey } from "./live-key";

/**
 * The live match day (decision 022): one Durable Object per league, season and match day (`liveObjectName`),
 * holding the WebSockets of the pages that show that match day, with the hibernation API (the object leaves
 * memory between changes; the sockets stay open).
 *
 * It carries no data: on each change it broadcasts `{seq, kind: "changed"}` and the page revalidates its loader,
 * which reads under row-level security, so a socket only ever learns "something changed", never what another
 * player may not see. The sequence number lives in the object's storage (it survives hibernation and eviction);
 * a socket's user id is its attachment (serializeAttachment), which survives hibernation too. A client that
 * reconnects or sees a gap sends `{resync: lastSeq}` and gets `{seq, kind: "resync", changed}`.
 * "hello" also carries `changedAt`, the object's clock (ms) at its last change (null before the first one, stored
 * next to seq), so that a page whose data was read before a change that came before its socket opened revalidates
 * once (live-sequence.ts; the page sends nothing: it compares with the time its loader read the data). A time, no
 * data: the hidden-picks rule holds.
 * The object never touches the database; it is told by the Worker that committed a change (`notify`).
 */

export interface LiveAttachment {
  userId: string;
  connectedAt: number;
}

export type LiveMessage =
  | { seq: number; kind: "hello"; changedAt: number | null }
  | { seq: number; kind: "changed" }
  | { seq: number; kind: "resync"; changed: boolean };

/** The header the web Worker sets after checking the session; the object trusts only its own Worker. */
export const LIVE_USER_HEADER = "X-FootyCoach-Live-User";

/** At most this many sockets per object (one match day of one league); more are refused with 503. */
export const MAX_SOCKETS = 20_000;

const SEQ_KEY = "seq";
const CHANGED_AT_KEY = "changedAt";

export class LiveMatchDay extends DurableObject {
  /** The sequence number, read from storage once per wake (the object's memory goes with hibernation). */
  private seq: number | undefined;
  /** When the last change came (Date.now() in notify), read with seq; null before the first change. */
  private changedAt: number | null = null;
  /** The open sockets, counted once per wake when a socket connects, then kept in step (the limit's check). */
  private open: number | undefined;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    // A keep-alive answered without waking the object: the object's setting, set once per wake, not per socket.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  private async currentSeq(): Promise<number> {
    if (this.seq === undefined) {
      const stored = await this.ctx.storage.get<number>([SEQ_KEY, CHANGED_AT_KEY]);
      this.seq = stored.get(SEQ_KEY) ?? 0;
      this.changedAt = stored.get(CHANGED_AT_KEY) ?? null;
    }
    return this.seq;
  }

  /** The WebSocket upgrade, forwarded by the web Worker after it checked the session (GET /live). */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade.", { status: 426 });
    }
    const userId = request.headers.get(LIVE_USER_HEADER);
    if (!userId) return new Response("Sign in first.", { status: 401 });
    // Listing every socket on every connect made connecting n sockets cost n^2 / 2 (bench:live).
    this.open ??= this.ctx.getWebSockets().length;
    if (this.open >= MAX_SOCKETS) return new Response("Too many connections.", { status: 503 });

    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [userId]);
    this.open++;
    server.serializeAttachment({ userId, connectedAt: Date.now() } satisfies LiveAttachment);
    const seq = await this.currentSeq();
    server.send(JSON.stringify({ seq, kind: "hello", changedAt: this.changedAt } satisfies LiveMessage));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A committed change of this match day (a score, a status): the next sequence number, sent to every socket. */
  async notify(): Promise<number> {
    const seq = (await this.currentSeq()) + 1;
    // Called after the writer's COMMIT, so this clock is at or after the change (Workers' clock only stands still
    // between I/O, never runs ahead); pages compare it with when their loader read (live-sequence.ts).
    const changedAt = Date.now();
    this.seq = seq;
    this.changedAt = changedAt;
    await this.ctx.storage.put({ [SEQ_KEY]: seq, [CHANGED_AT_KEY]: changedAt });
    const message = JSON.stringify({ seq, kind: "changed" } satisfies LiveMessage);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(message);
      } catch {
        // a socket closing as we send: it reconnects and resyncs
      }
    }
    return seq;
  }

  /** The open sockets' users (for tests and diagnostics): what hibernation keeps. */
  connections(): LiveAttachment[] {
    return this.ctx.getWebSockets().map((ws) => ws.deserializeAttachment() as LiveAttachment);
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (typeof message !== "string" || message.length > 200) return;
    let body: unknown;
    try {
      body = JSON.parse(message);
    } catch {
      return;
    }
    const last = (body as { resync?: unknown } | null)?.resync;
    if (typeof last !== "number" || !Number.isInteger(last)) return;
    const seq = await this.currentSeq();
    ws.send(JSON.stringify({ seq, kind: "resync", changed: seq !== last } satisfies LiveMessage));
  }

  webSocketClose(ws: WebSocket, code: number): void {
    if (this.open !== undefined) this.open = Math.max(0, this.open - 1);
    // 1005/1006 cannot be sent back; answer the close with a normal one.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }

  webSocketError(ws: WebSocket): void {
    this.open = undefined; // rare: counted again at the next connect
    try {
      ws.close(1011, "error");
    } catch {
      // already closed
    }
  }
}
