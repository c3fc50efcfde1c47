// covers: endpoint:GET /intents/status/v3
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody, postJson, waitForSettledStatus } from '../support/bridgeClient';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

interface RawAnswer {
  status: number;
  /** Raw header lines in the order sent, Date left out (it moves with the wall clock). */
  headers: string[];
  body: Buffer;
}

/** One HTTP exchange as bytes: the answer's status, its header lines in order, its body. */
function rawRequest(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i] !== 'Date') headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * The status look-up clients poll (issue 24 part 3) is answered before express walks its routers;
 * its answer must be the one express gives, byte for byte, on every version of the record.
 */
describe('GET /intents/status/v3: the plain look-up answers as express does', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const plain = (requestId: string) => rawRequest(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
  // a second parameter (the schema lets it pass) keeps the look-up off the plain path: express answers it
  const throughExpress = (requestId: string) => rawRequest(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}&via=express`);

  it('gives the same status line, headers and body as the express route, before and after the request settles', async () => {
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(sim.accounts[3]!.address, { originChainId: 1, destinationChainId: 8453 }));
    const waitingId = quote.body.steps[0].requestId as string;
    const waiting = await plain(waitingId);
    expect(waiting.status).toBe(200);
    expect(JSON.parse(waiting.body.toString())).toMatchObject({ status: 'waiting', inTxHashes: [], txHashes: [] });
    expect(waiting).toEqual(await throughExpress(waitingId));
    expect(waiting.headers.slice(0, 2)).toEqual(['Content-Type: application/json; charset=utf-8', `Content-Length: ${waiting.body.length}`]);

    // the same request polled while it changes: each answer is the current record's, never a kept older one
    const { requestId, depositHash } = await quoteAndDepositNative(sim, 4, { origin: 1, destination: 8453 });
    const before = JSON.parse((await plain(requestId)).body.toString());
    await waitForSettledStatus(sim.baseUrl, requestId);
    const settled = await plain(requestId);
    const body = JSON.parse(settled.body.toString());
    expect(body).toMatchObject({ status: 'success', inTxHashes: [depositHash] });
    expect(body.txHashes).toHaveLength(1);
    expect(body.updatedAt).toBeGreaterThanOrEqual(before.updatedAt);
    expect(settled).toEqual(await throughExpress(requestId));
    // an upper-case id names the same request on both paths
    const upper = `0x${requestId.slice(2).toUpperCase()}`;
    expect(await plain(upper)).toEqual(settled);
    expect(await throughExpress(upper)).toEqual(settled);
  });

  it('leaves errors and other shapes to express: an unknown id is 404, a malformed one 400, a body that is not JSON 415', async () => {
    const unknown = await plain(`0x${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString())).toMatchObject({ errorCode: expect.any(String) });
    const malformed = await plain('0x1234');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body.toString())).toMatchObject({ errorCode: expect.any(String) });

    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(sim.accounts[5]!.address, { originChainId: 1, destinationChainId: 8453 }));
    const id = quote.body.steps[0].requestId as string;
    const withTextBody = await rawRequest(`${sim.baseUrl}/intents/status/v3?requestId=${id}`, { body: 'hello', headers: { 'content-type': 'text/plain', 'content-length': '5' } });
    expect(withTextBody.status).toBe(415);
    const head = await rawRequest(`${sim.baseUrl}/intents/status/v3?requestId=${id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });
});
