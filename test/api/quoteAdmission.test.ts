import type { AddressInfo } from 'node:net';
import { Agent, createServer, request, type Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { admitQuotesInOrder } from '../../src/api/quoteAdmission';

/** A server whose quote handler waits until the test releases it; it records the order handlers start in. */
async function gatedServer(limit: number) {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const app = express();
  app.use(express.json());
  app.use('/quote/v2', admitQuotesInOrder(limit));
  app.post('/quote/v2', async (req, res) => {
    const name = (req.body as { name: string }).name;
    started.push(name);
    await new Promise<void>((resolve) => release.set(name, resolve));
    res.json({ name });
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/quote/v2`, started, release };
}

const post = (url: string, name: string, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }), signal });

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('admitQuotesInOrder: overload queues quotes in arrival order', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('runs at most `limit` quotes at once and starts the waiting ones in the order they came', async () => {
    const gated = await gatedServer(2);
    server = gated.server;
    const answers: Array<Promise<Response>> = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      answers.push(post(gated.url, name));
      await new Promise((resolve) => setTimeout(resolve, 20)); // each arrives before the next
    }
    await until(() => gated.started.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gated.started).toEqual(['a', 'b']);
    gated.release.get('b')!();
    await until(() => gated.started.length === 3);
    expect(gated.started).toEqual(['a', 'b', 'c']);
    gated.release.get('a')!();
    gated.release.get('c')!();
    await until(() => gated.started.length === 5);
    expect(gated.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    gated.release.get('d')!();
    gated.release.get('e')!();
    const bodies = await Promise.all(answers.map(async (answer) => ((await answer).status === 200 ? ((await (await answer).json()) as { name: string }).name : 'error')));
    expect(bodies).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('drops a waiting quote whose client hung up: its handler never runs and its slot goes to the next', async () => {
    const gated = await gatedServer(1);
    server = gated.server;
    const first = post(gated.url, 'first');
    await until(() => gated.started.length === 1);
    const leaving = new AbortController();
    const gone = post(gated.url, 'gone', leaving.signal).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const last = post(gated.url, 'last');
    await new Promise((resolve) => setTimeout(resolve, 30));
    leaving.abort();
    await gone;
    await new Promise((resolve) => setTimeout(resolve, 30));
    gated.release.get('first')!();
    await until(() => gated.started.length === 2);
    expect(gated.started).toEqual(['first', 'last']);
    gated.release.get('last')!();
    expect((await first).status).toBe(200);
    expect(await (await last).json()).toEqual({ name: 'last' });
  });

  it('starts one quote per turn of the event loop: a burst of new connections is accepted while quotes queue', async () => {
    // quotes that need no I/O (every chain read cached), 2 ms of CPU each; Node accepts one
    // connection per turn of its loop, so turns that priced a quote for every open connection
    // grew with each one accepted, and a burst's last connections waited ~n²/4 quotes to get in
    let answered = 0;
    const answeredAtAccept: number[] = [];
    const app = express();
    app.use(express.json());
    app.use('/quote/v2', admitQuotesInOrder());
    app.post('/quote/v2', (_req, res) => {
      const until = performance.now() + 2;
      while (performance.now() < until);
      answered += 1;
      res.json({ answered });
    });
    server = createServer(app);
    server.on('connection', () => answeredAtAccept.push(answered));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/quote/v2`;
    const agent = new Agent({ keepAlive: true, maxSockets: 24 });
    const postOn = () =>
      new Promise<void>((resolve, reject) => {
        const call = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.once('end', () => resolve());
        });
        call.on('error', reject);
        call.end('{}');
      });
    // 24 clients, each on its own connection, quoting again as soon as it is answered
    let stop = false;
    const clients = Array.from({ length: 24 }, async () => {
      while (!stop) await postOn();
    });
    await until(() => answeredAtAccept.length === 24);
    stop = true;
    await Promise.all(clients);
    agent.destroy();
    // one quote per turn: the 24th connection is in after ~24 quotes (a quote for every open connection per turn: ~130)
    expect(answeredAtAccept.at(-1)!).toBeLessThan(60);
  });

  it('lets anything but a POST through without a slot', async () => {
    const app = express();
    app.use('/quote/v2', admitQuotesInOrder(0));
    app.get('/quote/v2', (_req, res) => res.status(404).json({ errorCode: 'NOT_FOUND' }));
    server = createServer(app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const answer = await new Promise<number>((resolve, reject) => {
      request(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/quote/v2`, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(answer).toBe(404);
  });
});
