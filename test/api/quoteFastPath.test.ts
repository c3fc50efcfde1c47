// covers: endpoint:POST /quote/v2, endpoint:POST /quote
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

interface RawAnswer {
  status: number;
  /** Raw header lines in the order sent, Date left out (it moves with the wall clock). */
  headers: string[];
  body: Buffer;
}

/** One HTTP exchange as bytes: the answer's status, its header lines in order, its body. */
function rawPost(url: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i] !== 'Date') lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, headers: lines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A JSON value's shape: every leaf replaced by its type, so two quotes with other ids compare equal. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shapeOf(v)]));
  return typeof value;
}

/**
 * A plain JSON `POST /quote/v2` is answered before express (issue 36): its answers must be the
 * ones express gives, byte for byte where the quote's own ids do not differ. A query string
 * (ignored by the route) keeps a request on express, for comparison.
 */
describe('POST /quote/v2: the plain quote answers as express does', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const plain = (body: string | Buffer, headers?: Record<string, string>) => rawPost(`${sim.baseUrl}/quote/v2`, body, headers);
  const throughExpress = (body: string | Buffer, headers?: Record<string, string>) => rawPost(`${sim.baseUrl}/quote/v2?via=express`, body, headers);

  it('answers a quote with the status line, headers and body shape of the express route, stored and attributed to its key', async () => {
    // a key of its own, that no other quote carried
    const created = await fetch(`${sim.baseUrl}/admin/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey }, body: JSON.stringify({ name: 'fast path' }) });
    const { apiKey } = (await created.json()) as { apiKey: string };
    const body = JSON.stringify(nativeBridgeBody(sim.accounts[3]!.address, { originChainId: 1, destinationChainId: 8453 }));
    const fast = await plain(body, { 'content-type': 'application/json', 'x-api-key': apiKey });
    const slow = await throughExpress(body);
    expect(fast.status).toBe(200);
    expect(fast.headers.slice(0, 2)).toEqual(['Content-Type: application/json; charset=utf-8', `Content-Length: ${fast.body.length}`]);
    expect(fast.headers.map((line) => line.split(':')[0])).toEqual(slow.headers.map((line) => line.split(':')[0]));
    const [fastQuote, slowQuote] = [JSON.parse(fast.body.toString()), JSON.parse(slow.body.toString())];
    expect(shapeOf(fastQuote)).toEqual(shapeOf(slowQuote));
    expect(fastQuote.fees).toEqual(slowQuote.fees);
    const requestId = fastQuote.steps[0].requestId as string;
    expect(requestId).not.toBe(slowQuote.steps[0].requestId);

    const status = await fetch(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
    expect(await status.json()).toMatchObject({ status: 'waiting' });
    // the x-api-key the quote carried attributes it: the requests of that key are this one alone
    const listing = await fetch(`${sim.baseUrl}/requests/v3?apiKey=${apiKey}`, { headers: { 'x-api-key': apiKey } });
    const ids = ((await listing.json()) as { requests: Array<{ id: string }> }).requests.map((r) => r.id);
    expect(ids).toEqual([requestId]);
  });

  it('answers the older POST /quote the same way', async () => {
    const body = JSON.stringify(nativeBridgeBody(sim.accounts[4]!.address));
    const fast = await rawPost(`${sim.baseUrl}/quote`, body);
    const slow = await rawPost(`${sim.baseUrl}/quote?via=express`, body);
    expect(fast.status).toBe(200);
    expect(shapeOf(JSON.parse(fast.body.toString()))).toEqual(shapeOf(JSON.parse(slow.body.toString())));
  });

  it('gives every bad body the answer express gives, byte for byte', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"user":"0x1"}')]);
    const bodies: Array<string | Buffer> = [
      '{"user": "0x', // malformed
      '"a string"', // JSON, not an object or array (express.json is strict)
      '123',
      ' \n\t ', // only whitespace
      '  nul',
      '[]', // an array: the schema's 400
      '{}', // every field missing
      bom, // a BOM is dropped: the object's fields are read
      Buffer.from([0xef, 0xbb, 0xbf]), // only a BOM: an empty body, read as {}
      JSON.stringify(nativeBridgeBody(sim.accounts[3]!.address, { originChainId: 999_999 })), // the quote's own 400
      JSON.stringify(nativeBridgeBody(sim.accounts[3]!.address, { amount: '1' })), // AMOUNT_TOO_LOW
      JSON.stringify({ ...nativeBridgeBody(sim.accounts[3]!.address), slippageTolerance: 'lots' }),
    ];
    for (const body of bodies) {
      const fast = await plain(body);
      expect(fast.status, String(body)).toBeGreaterThanOrEqual(400);
      expect(fast.status, String(body)).toBeLessThan(500);
      expect(JSON.parse(fast.body.toString()), String(body)).toMatchObject({ errorCode: expect.any(String), message: expect.any(String) });
      expect(fast, String(body)).toEqual(await throughExpress(body));
    }
    expect(JSON.parse((await plain('{"user": "0x')).body.toString())).toMatchObject({ errorCode: 'INVALID_JSON' });
    expect(JSON.parse((await plain('"a string"')).body.toString())).toMatchObject({ errorCode: 'INVALID_JSON' });
  });

  it('leaves every other shape to express, whose answers (415, 413, 200) stand', async () => {
    const body = JSON.stringify(nativeBridgeBody(sim.accounts[5]!.address));
    expect((await plain(body, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await plain(body, { 'content-type': 'application/json', 'content-encoding': 'gzip' })).status).toBe(415);
    expect((await plain(body, { 'content-type': 'application/json; charset=latin1' })).status).toBe(415);
    expect((await plain(body, { 'content-type': 'application/json;charset=UTF-8' })).status).toBe(200);
    const large = await plain(JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }));
    expect(large.status).toBe(413);
    expect(JSON.parse(large.body.toString())).toMatchObject({ errorCode: 'PAYLOAD_TOO_LARGE' });
    // no body at all: express reads none, and the schema names every field
    const empty = await plain('');
    expect(empty).toEqual(await throughExpress(''));
    expect(empty.status).toBe(400);
  });
});
