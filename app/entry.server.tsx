import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server.node";

const ABORT_DELAY = 5_000;

/**
 * Renders the whole document, then answers with it in one body.
 *
 * React's Node build of the streaming renderer is used on Workers (nodejs_compat gives it `util` and
 * `setImmediate`): it encodes HTML into 2 KB buffers with TextEncoder.encodeInto, where the web-streams build
 * allocates a Uint8Array per string piece through TextEncoder.encode. Measured on this app in workerd: 2.2 ms
 * less CPU for a 900-element dashboard (11.4 -> 9.2 ms) and 1.7 ms less for /competitions
 * (docs/decisions/008-request-cost-on-workers.md). No loader defers data, so nothing is lost by sending the
 * document whole: bots and no-JS browsers get the same complete page as everyone else.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  endReadBeforeRender(request, loadContext);
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    // The part of a Node Writable that React's pipe() uses.
    const destination = {
      write(chunk: Uint8Array | string) {
        const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
        chunks.push(bytes);
        size += bytes.byteLength;
        return true;
      },
      end() {
        clearTimeout(timer);
        const html = new Uint8Array(size);
        let offset = 0;
        for (const chunk of chunks) {
          html.set(chunk, offset);
          offset += chunk.byteLength;
        }
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
      },
      destroy(error: unknown) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      on() {
        return destination;
      },
    };
    const stream = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
      onAllReady() {
        stream.pipe(destination as unknown as NodeJS.WritableStream);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError(error: unknown) {
        console.error(error);
        responseStatusCode = 500;
      },
    });
    const timer = setTimeout(() => stream.abort(), ABORT_DELAY);
  });
}

/** A single-fetch data request (`.data`): its loaders are done too, so a read ends its transaction now. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request, context }) => {
  endReadBeforeRender(request, context);
  return response;
};

/**
 * Every loader of a read has run: its transaction ends now, before the page is rendered, so its pooled database
 * connection is free again one round trip later instead of after the render and the answer (under load the render
 * waits for CPU, and a deadline rush ran out of pooled connections held idle in transactions; decision 024). Not
 * awaited: a read's answer never waited for its COMMIT. A write ends its own transaction (db.commit(), decision 016)
 * and the Worker awaits the rest, so nothing changes for POSTs.
 */
function endReadBeforeRender(request: Request, context: AppLoadContext) {
  if (request.method !== "GET" && request.method !== "HEAD") return;
  context.db.finish().catch((error: unknown) => console.error("ending a read failed:", (error as Error)?.message ?? error));
}
