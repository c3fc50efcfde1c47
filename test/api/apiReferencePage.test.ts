import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explorerPage } from '../../src/api/explorer/explorerPage';
import { openapiRoutes } from '../../src/api/routes/openapiRoutes';

// the API reference page in the explorer (docs/openapi.md): the bundled renderer, served by the simulator, no CDN
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  const app = express().use(openapiRoutes());
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the API reference page', () => {
  it('serves the page for each document, and the renderer script from node_modules (no network URL in the page)', async () => {
    for (const [path, documentUrl] of [['/explorer/api-reference', '/openapi.json'], ['/explorer/admin-api-reference', '/admin/openapi.json']] as const) {
      const page = await fetch(`${baseUrl}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain(`data-url="${documentUrl}"`);
      expect(html).toContain('<script src="/explorer/assets/api-reference.js">');
      expect(html).not.toMatch(/https?:\/\//);
    }
    const script = await fetch(`${baseUrl}/explorer/assets/api-reference.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
    // the explorer's navigation links to it as a page of its own (not a view of the explorer's script)
    expect(explorerPage()).toContain('<a href="/explorer/api-reference" target="_self">API reference</a>');
  });

  it('serves both documents as JSON, the same text on every request (built once)', async () => {
    const first = await fetch(`${baseUrl}/openapi.json`);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await first.text();
    expect(JSON.parse(text)).toMatchObject({ openapi: '3.1.0', info: { title: expect.any(String) } });
    expect(await (await fetch(`${baseUrl}/openapi.json`)).text()).toBe(text);
    expect(JSON.parse(await (await fetch(`${baseUrl}/admin/openapi.json`)).text())).toMatchObject({ openapi: '3.1.0' });
  });
});
