import { useEffect, useRef } from "react";
import { useRevalidator } from "@remix-run/react";
import { liveKeyId, type LiveKey } from "~/lib/live";
import { liveSequence } from "~/lib/live-sequence";

/*
 * Live updates (decision 022): one WebSocket per match day the page shows (GET /live, the LiveMatchDay Durable
 * Object). A message says only that something changed; the page then revalidates its loader, which reads under
 * row-level security, so the socket never carries what the player may not see. Reconnects with backoff
 * (1 s, 2 s, 4 s ... 30 s) and resyncs: after a reconnect or a gap in the sequence it sends {resync: lastSeq}
 * and revalidates when the object moved on meanwhile (the sequence logic: live-sequence.ts). A change between the
 * page's load and its socket's first message is caught by `readAt` (the loader's `liveReadAt`, taken before its
 * query): the hello says when the object last changed, and the page revalidates once if that is newer. Without
 * JavaScript nothing opens; a reload shows the latest state.
 */

const PING_MS = 30_000;
const MAX_BACKOFF_MS = 30_000;

export function useLive(keys: LiveKey[], readAt: number | null): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  const dataReadAt = useRef(readAt);
  useEffect(() => {
    revalidate.current = revalidator.revalidate;
    dataReadAt.current = readAt;
  });
  // a stable dependency: the distinct match days, in order
  const ids = [...new Set(keys.map(liveKeyId))].sort().join("\n");

  useEffect(() => {
    if (!ids) return;
    const stops = ids.split("\n").map((id) => {
      const [league, season, md] = id.split("|");
      return connect(
        { league, season, matchDay: Number(md) },
        () => revalidate.current(),
        () => dataReadAt.current,
      );
    });
    return () => stops.forEach((stop) => stop());
  }, [ids]);
}

function connect(key: LiveKey, onChange: () => void, dataReadAt: () => number | null): () => void {
  let socket: WebSocket | null = null;
  const sequence = liveSequence(dataReadAt);
  let attempt = 0;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;
  const query = new URLSearchParams({ league: key.league, season: key.season, md: String(key.matchDay) });
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/live?${query}`;

  const open = () => {
    if (stopped) return;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      // a reconnect: did we miss something?
      const resync = sequence.opened();
      if (resync) ws.send(resync);
      ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send("ping"), PING_MS);
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== "string" || event.data === "pong") return;
      const step = sequence.received(event.data);
      if (step.reply && ws.readyState === WebSocket.OPEN) ws.send(step.reply);
      if (step.revalidate) onChange();
    };
    ws.onclose = () => {
      clearInterval(ping);
      if (stopped) return;
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      attempt += 1;
      retry = setTimeout(open, delay);
    };
  };
  open();

  return () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(ping);
    socket?.close(1000, "page left");
  };
}
