import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator';
import { startTestSimulator } from '../../support/startTestSimulator';
import { isAuthenticWebhook } from '../../support/webhookReceiver';
import { deliveriesOf, putWebhook, quoteWithApiKey } from '../../support/webhookFlows';

type Mode = 'hang' | 'reset' | 'slowBody' | 'redirect' | 'tooMany' | 'error' | 'ok';

/** A receiver that misbehaves as told: never answers, resets, sends headers but no body end, 302, 429, 503 — or accepts. */
async function startMisbehavingReceiver() {
  let mode: Mode = 'ok';
  const bodies: string[] = [];
  const accepted: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      if (mode === 'hang') return; // never answers
      if (mode === 'reset') return void req.socket.destroy();
      if (mode === 'slowBody') return void res.writeHead(503, { 'content-type': 'text/plain', 'content-length': '100' }).write('partial'); // the body never ends
      if (mode === 'redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      if (mode === 'tooMany') return void res.writeHead(429, { 'retry-after': '1' }).end();
      if (mode === 'error') return void res.writeHead(503).end();
      accepted.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    accepted,
    setMode: (next: Mode) => void (mode = next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** SPEC §6.2 under receivers that hang, reset, stall or refuse: every failure is an attempt, retries follow, recovery delivers once. */
describe('webhook delivery against misbehaving receivers (manual clock)', () => {
  let sim: RunningSimulator;
  let receiver: Awaited<ReturnType<typeof startMisbehavingReceiver>>;
  let other: Awaited<ReturnType<typeof startMisbehavingReceiver>>;
  beforeAll(async () => {
    receiver = await startMisbehavingReceiver();
    other = await startMisbehavingReceiver();
    sim = await startTestSimulator({ clockMode: 'manual', webhookTimeoutMs: 300 });
  });
  afterAll(async () => {
    await sim?.stop();
    await receiver?.close();
    await other?.close();
  });

  async function advance(ms: number): Promise<void> {
    sim.control.clock.advance(ms);
    await sim.control.webhooks.idle();
  }

  it('every failure mode is a failed attempt followed by the next retry; once the receiver answers 2xx the event arrives exactly once, signed', async () => {
    await putWebhook(sim, sim.apiKey, { url: receiver.url });
    const modes: Mode[] = ['hang', 'reset', 'slowBody', 'redirect', 'tooMany', 'error'];
    receiver.setMode(modes[0]!);
    const quote = await quoteWithApiKey(sim, sim.apiKey);
    const requestId = quote.steps[0]!.requestId as string;
    // collect garbage while the first attempt hangs: a timeout signal nothing holds on to is
    // collected on Node 20 and never fires (what left deliveries pending forever)
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      (globalThis as { gc?: () => void }).gc?.();
    }
    expect(typeof (globalThis as { gc?: () => void }).gc).toBe('function');
    await sim.control.webhooks.idle(); // the hanging attempt ends at its timeout
    for (let retry = 1; retry < modes.length; retry++) {
      receiver.setMode(modes[retry]!);
      await advance(1000 * 2 ** (retry - 1));
    }
    receiver.setMode('ok');
    await advance(1000 * 2 ** (modes.length - 1));
    await advance(3_600_000); // nothing more after the delivery

    const delivery = (await deliveriesOf(sim, requestId))[0]!;
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((a) => [a.attempt, a.statusCode, a.error === null ? null : 'error'])).toEqual([
      [1, null, 'error'], // hang: timed out
      [2, null, 'error'], // connection reset
      [3, 503, null], // headers, then a body that never ends: the answer counts, the body is dropped
      [4, 302, null], // not followed
      [5, 429, null],
      [6, 503, null],
      [7, 200, null],
    ]);
    expect(delivery.attempts[0]!.error).toMatch(/did not answer in time/);
    expect(receiver.accepted).toHaveLength(1);
    expect(isAuthenticWebhook(receiver.accepted[0]!, sim.apiKey, { now: sim.control.clock.now(), toleranceSeconds: 7200 })).toBe(true);
    expect(new Set(receiver.bodies).size).toBe(1);
  });

  it("a hanging receiver for one key does not hold up another key's deliveries", async () => {
    const second = await (await fetch(`${sim.baseUrl}/admin/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"second"}' })).json() as { apiKey: string };
    await putWebhook(sim, sim.apiKey, { url: receiver.url });
    await putWebhook(sim, second.apiKey, { url: other.url });
    receiver.setMode('hang');
    other.setMode('ok');
    const before = other.accepted.length;
    const slow = await quoteWithApiKey(sim, sim.apiKey);
    const fast = await quoteWithApiKey(sim, second.apiKey);
    // the second key's delivery is done while the first one's attempt still hangs
    const deadline = Date.now() + 5_000;
    while (other.accepted.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(other.accepted.length).toBe(before + 1);
    expect((await deliveriesOf(sim, fast.steps[0]!.requestId))[0]!.state).toBe('delivered');
    await sim.control.webhooks.idle();
    const hanging = (await deliveriesOf(sim, slow.steps[0]!.requestId))[0]!;
    expect(hanging).toMatchObject({ state: 'pending' });
    expect(hanging.attempts[0]!.error).toMatch(/did not answer in time/);
  });
});
