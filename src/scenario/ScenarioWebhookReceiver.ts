import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  requestId: string;
  status: string;
  /** 1 for an event's first delivery attempt, 2 for its first retry, … */
  attempt: number;
  answer: number;
}

/**
 * The scenario's webhook receiver (127.0.0.1, a free port): the n-th attempt of each event
 * (request + status) is answered `answers[n-1]`, then 200 — the same whatever order deliveries
 * arrive in.
 */
export class ScenarioWebhookReceiver {
  private server: Server | undefined;
  private readonly attempts = new Map<string, number>();

  constructor(
    private answers: readonly number[],
    private onReceived: (webhook: ReceivedWebhook) => void,
  ) {}

  /** From now on answers as a new receiver would (attempts counted from 1 again) and tells `onReceived`: a kept receiver's next run (ReusedScenarioSimulator). */
  answerWith(answers: readonly number[], onReceived: (webhook: ReceivedWebhook) => void): void {
    this.answers = answers;
    this.onReceived = onReceived;
    this.attempts.clear();
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        let payload: { data?: { requestId?: unknown; status?: unknown } } = {};
        try {
          payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof payload;
        } catch {
          // recorded with what it has
        }
        const requestId = String(payload.data?.requestId ?? '').toLowerCase();
        const status = String(payload.data?.status ?? '');
        const key = `${requestId}:${status}`;
        const attempt = (this.attempts.get(key) ?? 0) + 1;
        this.attempts.set(key, attempt);
        const answer = this.answers[attempt - 1] ?? 200;
        this.onReceived({ requestId, status, attempt, answer });
        response.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
