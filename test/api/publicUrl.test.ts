import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from 'node:http';
import type { RunningSimulator } from '../../src/simulator';
import { formatStartSummary, startSummaryJson } from '../../src/formatStartSummary';
import { startTestSimulator } from '../support/startTestSimulator';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

interface ListedChain {
  id: number;
  httpRpcUrl: string;
  wsRpcUrl: string;
  explorerUrl: string;
}

/** `GET /chains` with the Host header given (fetch always sends its URL's). */
function chainsWithHost(listenUrl: string, host: string): Promise<ListedChain[]> {
  return new Promise((resolve, reject) => {
    get(`${listenUrl}/chains`, { headers: { host } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk)).on('end', () => resolve((JSON.parse(text) as { chains: ListedChain[] }).chains));
    }).once('error', reject);
  });
}

describe('--public-url: every URL handed out is at its host', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ publicUrl: 'http://intentsim.example.test:4646/' });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('GET /chains, whatever Host a client used: the explorer at the public URL, each chain at its hostname on its own port', async () => {
    for (const host of [new URL(sim.listenUrl).host, 'localhost:1234']) {
      for (const listed of await chainsWithHost(sim.listenUrl, host)) {
        const listening = sim.control.chain(listed.id).describe();
        expect(listed.httpRpcUrl, `${listed.id} via ${host}`).toBe(`http://intentsim.example.test:${new URL(listening.httpRpcUrl).port}`);
        expect(listed.wsRpcUrl, `${listed.id} via ${host}`).toBe(`ws://intentsim.example.test:${new URL(listening.wsRpcUrl).port}`);
        expect(listed.explorerUrl).toBe(`http://intentsim.example.test:4646/explorer/${listed.id}`);
      }
    }
  });

  it('admin routes need the default API key, even on the loopback host: a proxy may bring anyone', async () => {
    expect((await fetch(`${sim.listenUrl}/admin/api-keys`)).status).toBe(403);
    expect((await fetch(`${sim.listenUrl}/admin/api-keys`, { headers: { 'x-api-key': sim.apiKey } })).status).toBe(200);
  });

  it('the summary and --json print the public URLs and say where they come from', () => {
    const json = startSummaryJson(sim) as { baseUrl: string; publicUrlFrom: string; chains: Array<{ rpcUrl: string }> };
    expect(json).toMatchObject({ baseUrl: 'http://intentsim.example.test:4646', publicUrlFrom: 'public-url' });
    for (const chain of json.chains) expect(new URL(chain.rpcUrl).hostname).toBe('intentsim.example.test');
    expect(formatStartSummary(sim)).toContain("API        http://intentsim.example.test:4646\nURLs       at --public-url's host intentsim.example.test, each chain on its own port\n");
  });
});

describe('the default host (127.0.0.1): nothing moves', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('the chains are handed out where they listen, whatever Host a client used; the explorer follows the Host as before', async () => {
    const { port } = new URL(sim.listenUrl);
    for (const listed of await chainsWithHost(sim.listenUrl, `localhost:${port}`)) {
      expect(listed.httpRpcUrl).toBe(sim.control.chain(listed.id).describe().httpRpcUrl);
      expect(listed.httpRpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(listed.explorerUrl).toBe(`http://localhost:${port}/explorer/${listed.id}`);
    }
    expect(sim.baseUrl).toBe(sim.listenUrl);
    expect(startSummaryJson(sim)).toMatchObject({ baseUrl: `http://127.0.0.1:${port}`, publicUrlFrom: 'listen-address' });
    expect(formatStartSummary(sim)).not.toContain('URLs       ');
  });
});
