/** A push queue message: up to 100 deliveries (rows of private.push_deliveries) to send. */
export interface DeliveryMessage {
  ids: number[];
}

export const DELIVERIES_PER_MESSAGE = 100;
/** Queues' sendBatch takes at most 100 messages per call. */
const MESSAGES_PER_SEND = 100;

/** Puts the deliveries on the queue in messages of at most 100 (Queues sendBatch). Returns the messages sent. */
export async function enqueueDeliveries(queue: Queue<DeliveryMessage>, ids: readonly number[]): Promise<number> {
  const messages: { body: DeliveryMessage }[] = [];
  for (let i = 0; i < ids.length; i += DELIVERIES_PER_MESSAGE) messages.push({ body: { ids: ids.slice(i, i + DELIVERIES_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND) await queue.sendBatch(messages.slice(i, i + MESSAGES_PER_SEND));
  return messages.length;
}

/** A message body from the queue, checked (a malformed one is dropped, not retried forever). */
export function readDeliveryMessage(body: unknown): DeliveryMessage | null {
  const ids = (body as { ids?: unknown } | null)?.ids;
  if (!Array.isArray(ids) || ids.length > DELIVERIES_PER_MESSAGE) return null;
  if (!ids.every((id) => Number.isSafeInteger(id) && id > 0)) return null;
  return { ids: ids as number[] };
}
