import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver took, as it arrived. */
export interface ReceivedWebhook {
  /** Arrival order, from 0. */
  index: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body's exact bytes (the signature is over them). */
  rawBody: Buffer;
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: unknown;
  /** The status the receiver answered. */
  answeredStatus: number;
}

export interface WebhookReceiver {
  /** The URL to register: 127.0.0.1, a free port, and a path of its own. */
  url: string;
  received: ReceivedWebhook[];
  /** Resolves true once `done` holds for what was received, false after `timeoutMs`. */
  waitUntil(done: (received: readonly ReceivedWebhook[]) => boolean, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A webhook receiver for the suite: a real listener on 127.0.0.1:0 that keeps every POST to its
 * path, answering the status `answer` decides (a 500 to provoke a retry, else 200). POSTs to
 * another path are answered 404 and not kept.
 */
export async function startWebhookReceiver(answer: (delivery: Omit<ReceivedWebhook, 'answeredStatus'>, received: readonly ReceivedWebhook[]) => number): Promise<WebhookReceiver> {
  const path = `/conformance-webhook/${randomUUID()}`;
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://receiver').pathname !== path) {
        res.writeHead(404).end();
        return;
      }
      const rawBody = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        json = undefined;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name.toLowerCase(), value]] : Array.isArray(value) ? [[name.toLowerCase(), value.join(', ')]] : [])));
      const delivery = { index: received.length, headers, rawBody, json };
      const answeredStatus = answer(delivery, received);
      received.push({ ...delivery, answeredStatus });
      res.writeHead(answeredStatus, { 'content-type': 'text/plain' }).end(answeredStatus < 300 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    async waitUntil(done, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (!done(received)) {
        if (performance.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
