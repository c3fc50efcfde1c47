import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../src/index';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** the raw body, exactly as received */
  body: string;
  /** the status code the receiver answered */
  answeredWith: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answer every following delivery with this status code. */
  setStatusCode(statusCode: number): void;
  /** Resolves once `count` deliveries have arrived (counting from the start). */
  waitForMessage(count?: number): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/**
 * A real webhook receiver on 127.0.0.1:0. `decide` picks the answer for each delivery (default:
 * the settable status code, 200 unless set).
 */
export async function startWebhookReceiver(decide?: (webhook: { headers: IncomingHttpHeaders; body: string }) => number): Promise<WebhookReceiver> {
  let statusCode = 200;
  const received: ReceivedWebhook[] = [];
  const waiters: Array<{ count: number; resolve: (webhook: ReceivedWebhook) => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answeredWith = decide ? decide({ headers: req.headers, body }) : statusCode;
      const webhook = { headers: req.headers, body, answeredWith };
      received.push(webhook);
      res.writeHead(answeredWith, { 'content-type': 'text/plain' }).end(answeredWith < 300 ? 'ok' : 'no');
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(received[waiter.count - 1]!);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    setStatusCode: (code) => {
      statusCode = code;
    },
    waitForMessage: (count = received.length + 1) =>
      received.length >= count ? Promise.resolve(received[count - 1]!) : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Whether a received delivery is authentic for `apiKey` (SPEC §6.3), as a correct receiver checks it. */
export function isAuthenticWebhook(webhook: { headers: IncomingHttpHeaders; body: string }, apiKey: string, clock?: { now: number; toleranceSeconds: number }): boolean {
  return verifyWebhookSignature({
    body: webhook.body,
    timestamp: webhook.headers['x-signature-timestamp'] as string | undefined,
    signature: webhook.headers['x-signature-sha256'] as string | undefined,
    apiKey,
    ...(clock ?? {}),
  });
}

/** A correct receiver: 200 for an authentic delivery, 401 otherwise. */
export function startVerifyingWebhookReceiver(apiKey: string): Promise<WebhookReceiver> {
  return startWebhookReceiver((webhook) => (isAuthenticWebhook(webhook, apiKey) ? 200 : 401));
}
