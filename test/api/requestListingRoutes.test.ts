import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErrorMiddleware, notFoundHandler } from '../../src/api/errorMiddleware';
import { DEPRECATED_LISTING, requestListingRoutes } from '../../src/api/routes/requestListingRoutes';
import { VirtualClock } from '../../src/clock/VirtualClock';
import type { RequestRecord } from '../../src/domain/request/requestRecord';
import { ApiKeyStore } from '../../src/store/ApiKeyStore';
import { openDatabase } from '../../src/store/openDatabase';
import { RequestListingStore } from '../../src/store/RequestListingStore';
import { RequestRecordWriter } from '../../src/store/RequestRecordWriter';
import { RequestStore } from '../../src/store/RequestStore';
import { listingRecords } from '../support/listingFixtures';
import { hexId, makeRequestRecord, makeTransactionEntry } from '../support/requestRecordFixture';

// covers: endpoint:GET /requests/v3, endpoint:GET /requests, endpoint:GET /requests/v2
// covers: limit:limit (page size) @ GET /requests/v3, limit:elevated per-key rate @ GET /requests/v3
// covers: limit:elevated per-key rate @ GET /requests and GET /requests/v2

/**
 * The listing routes on a real SQLite store and a real HTTP server, with the simulator's clock in
 * manual mode so rates and the retirement date are exact. Chain-backed records are in
 * test/e2e/requestListing.test.ts; here the store is seeded directly for breadth.
 */
let dir: string;
let server: Server;
let baseUrl: string;
let requests: RequestStore;
let writer: RequestRecordWriter;
let clock: VirtualClock;
let keyA: string;
let keyB: string;
let closeDb: () => void;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-listing-'));
  const db = openDatabase(join(dir, 'listing.db'));
  closeDb = () => db.close();
  requests = new RequestStore(db);
  writer = new RequestRecordWriter(db);
  const apiKeys = new ApiKeyStore(db, 7);
  clock = new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 10, 22, 12, 0, 0) });
  keyA = apiKeys.ensureDefault(clock.now()).key;
  keyB = apiKeys.create('second', clock.now()).key;
  const app = express();
  app.use(requestListingRoutes({ requests, listing: new RequestListingStore(db), apiKeys, clock }));
  app.use(notFoundHandler);
  app.use(createErrorMiddleware(() => undefined));
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const record of Object.values(listingRecords({ a: keyA, b: keyB }))) writer.insert(record);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  closeDb?.();
  rmSync(dir, { recursive: true, force: true });
});

async function rawGet(path: string, key?: string) {
  const response = await fetch(`${baseUrl}${path}`, { headers: key ? { 'x-api-key': key } : {} });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** One request a (virtual) second apart, so the rate limit never interferes. */
async function get(path: string, key: string | null = keyA) {
  clock.advance(1000);
  return rawGet(path, key ?? undefined);
}

function idsOf(body: { requests: Array<{ id: string }> }): string[] {
  return body.requests.map((r) => r.id);
}

describe('GET /requests/v3 over HTTP', () => {
  it('requires x-api-key: 401 MISSING_API_KEY without, 401 INVALID_API_KEY with an unknown key', async () => {
    const missing = await get('/requests/v3', null);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ errorCode: 'MISSING_API_KEY', statusCode: 401 });
    const wrong = await get('/requests/v3', 'intentsim_not_a_key');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ errorCode: 'INVALID_API_KEY' });
  });

  it('answers { requests } newest first by default, in the §2.3 shape, with no continuation on the last page', async () => {
    const { status, body } = await get('/requests/v3');
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([hexId(0xb4), hexId(0xb3), hexId(0xb2), hexId(0xb1)]);
    expect(body.continuation).toBeUndefined();
    const bridge = body.requests[3];
    expect(bridge).toMatchObject({ id: hexId(0xb1), status: 'success', requestType: 'Bridge', createdAt: '2026-11-20T12:00:00.000Z' });
    expect(bridge.data.inTxs[0]).toMatchObject({ txHash: hexId(0xd1), fee: '21000000000000', feeUsd: '0.063', block: 10, chainId: 1, status: 'success' });
  });

  it('sorts by updatedAt and by amountUsd (ascending by default), either direction', async () => {
    expect(idsOf((await get('/requests/v3?sortBy=amountUsd')).body)).toEqual([hexId(0xb3), hexId(0xb2), hexId(0xb1), hexId(0xb4)]);
    expect(idsOf((await get('/requests/v3?sortBy=amountUsd&sortDirection=desc')).body)).toEqual([hexId(0xb4), hexId(0xb1), hexId(0xb2), hexId(0xb3)]);
    expect(idsOf((await get('/requests/v3?sortBy=updatedAt&sortDirection=asc')).body)).toEqual([hexId(0xb1), hexId(0xb2), hexId(0xb3), hexId(0xb4)]);
  });

  it('filters over HTTP (query parameters and a filters JSON with not: and arrays), and counts with includeTotal', async () => {
    const filters = encodeURIComponent(JSON.stringify([{ 'not:status': ['failure', 'refund'] }]));
    expect(idsOf((await get(`/requests/v3?filters=${filters}&sortDirection=asc`)).body)).toEqual([hexId(0xb1), hexId(0xb3)]);
    expect(idsOf((await get(`/requests/v3?apiKey=${keyA},${keyB}&chainId=8453`)).body)).toEqual([hexId(0xb2), hexId(0xb1)]);
    const counted = await get('/requests/v3?limit=1&includeTotal=true&originChainId=8453');
    expect(counted.body).toMatchObject({ total: 2 });
    expect(counted.body.requests).toHaveLength(1);
    expect(counted.body.continuation).toEqual(expect.any(String));
    expect((await get('/requests/v3?privateChainsToInclude=4b6f7c1e-0000-4000-8000-000000000000')).status).toBe(200);
  });

  it('answers 400 with an errorCode for unknown or invalid parameters, never 500', async () => {
    for (const query of ['bogus=1', 'limit=0', 'limit=51', 'status=lost', 'filters=%5B%7B%22x%22%3A1%7D%5D', 'sortBy=price', 'status=success&status=refund']) {
      const { status, body } = await get(`/requests/v3?${query}`);
      expect(status, query).toBe(400);
      expect(body.errorCode, query).toBe('INVALID_INPUT_PARAMS');
    }
    const cursor = (await get('/requests/v3?limit=1')).body.continuation;
    const mismatched = await get(`/requests/v3?limit=1&sortBy=updatedAt&continuation=${cursor}`);
    expect(mismatched).toMatchObject({ status: 400, body: { errorCode: 'INVALID_CONTINUATION' } });
    expect((await get('/requests/v3?continuation=bm90IGEgY3Vyc29y')).body.errorCode).toBe('INVALID_CONTINUATION');
  });

  it('adds referrer and platformFee only to the caller key’s own requests with includeAuthenticatedData=true', async () => {
    const plain = (await get('/requests/v3?id=' + hexId(0xb1))).body.requests[0];
    expect(plain.data.referrer).toBeUndefined();
    const own = (await get('/requests/v3?includeAuthenticatedData=true&id=' + hexId(0xb1), keyA)).body.requests[0];
    expect(own.data).toMatchObject({ referrer: 'app-a', platformFee: { relayFeeBps: 10, integratorFeeBps: 0, totalFeeBps: 10 } });
    const other = (await get('/requests/v3?includeAuthenticatedData=true&id=' + hexId(0xb1), keyB)).body.requests[0];
    expect(other.data.referrer).toBeUndefined();
    expect(other.data.platformFee).toBeUndefined();
  });

  it('includeChildRequests with id adds the requests that superseded it; otherwise only the exact id', async () => {
    const parent = makeRequestRecord({ id: hexId(0xc0), createdAt: Date.UTC(2026, 0, 1), updatedAt: Date.UTC(2026, 0, 1), supersededByRequestId: hexId(0xc1) });
    const child = makeRequestRecord({ id: hexId(0xc1), createdAt: Date.UTC(2026, 0, 2), updatedAt: Date.UTC(2026, 0, 2) });
    writer.insert(parent);
    writer.insert(child);
    expect(idsOf((await get(`/requests/v3?id=${hexId(0xc0)}`)).body)).toEqual([hexId(0xc0)]);
    expect(idsOf((await get(`/requests/v3?id=${hexId(0xc0)}&includeChildRequests=true`)).body)).toEqual([hexId(0xc1), hexId(0xc0)]);
    expect(idsOf((await get(`/requests/v3?includeChildRequests=true&startTimestamp=${Date.UTC(2026, 0, 2) / 1000}&endTimestamp=${Date.UTC(2026, 0, 2) / 1000}`)).body)).toEqual([hexId(0xc1)]);
  });

  it('pages with an opaque continuation that never repeats or skips a record while others are inserted between pages', async () => {
    const base = Date.UTC(2025, 0, 1);
    const seeded: RequestRecord[] = [];
    // 23 requests, several sharing a createdAt so the id breaks ties
    for (let i = 0; i < 23; i++) seeded.push(makeRequestRecord({ id: hexId(0x1000 + i), createdAt: base + Math.floor(i / 3) * 1000, updatedAt: base, referrer: null } as Partial<RequestRecord>));
    for (const record of seeded) writer.insert(record);
    const window = `startTimestamp=${base / 1000}&endTimestamp=${base / 1000 + 100}`;

    for (const direction of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      let continuation: string | undefined;
      let insertedSoFar = 0;
      do {
        const page = await get(`/requests/v3?limit=4&sortDirection=${direction}&${window}${continuation ? `&continuation=${continuation}` : ''}`);
        expect(page.status).toBe(200);
        expect(page.body.requests.length).toBeLessThanOrEqual(4);
        seen.push(...idsOf(page.body));
        continuation = page.body.continuation;
        // between pages: one newer, one older and one tying the boundary's createdAt
        const n = 0x2000 + (direction === 'asc' ? 0x100 : 0) + insertedSoFar;
        writer.insert(makeRequestRecord({ id: hexId(n), createdAt: base + 99_000, updatedAt: base }));
        writer.insert(makeRequestRecord({ id: hexId(n + 1), createdAt: base, updatedAt: base }));
        writer.insert(makeRequestRecord({ id: hexId(n + 2), createdAt: base + 3000, updatedAt: base }));
        insertedSoFar += 3;
      } while (continuation);
      expect(new Set(seen).size, 'no record repeated').toBe(seen.length);
      for (const record of seeded) expect(seen, `${direction}: ${record.id} not skipped`).toContain(record.id);
      const order = seen.map((id) => requests.get(id)!.createdAt);
      const sorted = [...order].sort((a, b) => (direction === 'asc' ? a - b : b - a));
      expect(order).toEqual(sorted);
    }
  });

  it('limits each key to 20 requests per second: 429 TOO_MANY_REQUESTS with Retry-After, on the virtual clock', async () => {
    clock.advance(5000);
    for (let i = 0; i < 20; i++) expect((await rawGet('/requests/v3?limit=1', keyA)).status).toBe(200);
    const limited = await rawGet('/requests/v3?limit=1', keyA);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toMatchObject({ errorCode: 'TOO_MANY_REQUESTS', statusCode: 429 });
    // another key has its own budget
    expect((await rawGet('/requests/v3?limit=1', keyB)).status).toBe(200);
    clock.advance(999);
    expect((await rawGet('/requests/v3?limit=1', keyA)).status).toBe(429);
    clock.advance(1);
    expect((await rawGet('/requests/v3?limit=1', keyA)).status).toBe(200);
  });
});

describe('deprecated GET /requests and GET /requests/v2 (SPEC §4.7, §9)', () => {
  it('answer with Deprecation, Sunset and a successor link, in the older field names', async () => {
    const v2 = await get(`/requests/v2?apiKey=${keyA}`);
    expect(v2.status).toBe(200);
    expect(v2.headers.get('deprecation')).toBe(`@${DEPRECATED_LISTING.deprecatedAt / 1000}`);
    expect(v2.headers.get('sunset')).toBe('Tue, 24 Nov 2026 00:00:00 GMT');
    expect(v2.headers.get('link')).toBe('</requests/v3>; rel="successor-version"');
    const bridge = v2.body.requests.find((r: { id: string }) => r.id === hexId(0xb1));
    expect(bridge.data.inTxs[0].hash).toBe(hexId(0xd1));
    expect(bridge.data.inTxs[0].txHash).toBeUndefined();
    expect(bridge.data.fees).toEqual({ gas: '21000000000000', fixed: '0', price: '1000000000000000' });
    const depositAddress = v2.body.requests.find((r: { id: string }) => r.id === hexId(0xb3));
    expect(depositAddress.depositAddress).toMatchObject({ depositAddressType: 'strict' });

    const v1 = await get(`/requests?id=${hexId(0xb2)}`, null);
    expect(v1.status).toBe(200);
    expect(v1.headers.get('sunset')).toBe('Tue, 24 Nov 2026 00:00:00 GMT');
    expect(v1.body.requests).toMatchObject([{ id: hexId(0xb2), status: 'fallback' }]);
    expect((await get(`/requests/v2?hash=${hexId(0xe2)}`)).body.requests.map((r: { id: string }) => r.id)).toEqual([hexId(0xb2)]);
    expect((await get('/requests/v2?term=x')).status).toBe(400);
  });

  it('reports a submitted request as pending in v2 and matches it with status=pending', async () => {
    writer.insert(makeRequestRecord({ id: hexId(0xe0), status: 'submitted', createdAt: Date.UTC(2024, 0, 1), updatedAt: Date.UTC(2024, 0, 1), submittedTxs: [{ txHash: hexId(0xe1), chainId: 8453, type: 'fill' }], inTxs: [makeTransactionEntry({ txHash: hexId(0xe3), type: 'deposit' })] }));
    const { body } = await get(`/requests/v2?status=pending&endTimestamp=${Date.UTC(2024, 0, 1) / 1000}`);
    expect(body.requests).toMatchObject([{ id: hexId(0xe0), status: 'pending' }]);
  });

  it('limit to 10 requests per second per key, or per client address without a key', async () => {
    clock.advance(5000);
    for (let i = 0; i < 10; i++) expect((await rawGet('/requests/v2?limit=1', keyB)).status).toBe(200);
    const limited = await rawGet('/requests?limit=1', keyB);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    for (let i = 0; i < 10; i++) expect((await rawGet('/requests/v2?limit=1')).status).toBe(200);
    expect((await rawGet('/requests/v2?limit=1')).status).toBe(429);
    expect((await rawGet('/requests/v2?limit=1', keyA)).status).toBe(200);
  });

  it('are retired on 2026-11-24 by the simulator clock: 410 ENDPOINT_RETIRED pointing to /requests/v3', async () => {
    clock.set(DEPRECATED_LISTING.retiredAt - 1);
    expect((await rawGet('/requests/v2', keyA)).status).toBe(200);
    clock.set(DEPRECATED_LISTING.retiredAt);
    for (const path of ['/requests/v2', '/requests']) {
      const retired = await rawGet(path, keyA);
      expect(retired.status).toBe(410);
      expect(retired.body).toMatchObject({ errorCode: 'ENDPOINT_RETIRED', statusCode: 410 });
      expect(retired.body.message).toContain('/requests/v3');
      expect(retired.headers.get('sunset')).toBe('Tue, 24 Nov 2026 00:00:00 GMT');
    }
    expect((await rawGet('/requests/v3?limit=1', keyA)).status).toBe(200);
  });
});
