import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/config/listenHost';
import type { RunningSimulator } from '../../src/simulator';
import { requestJson } from '../support/bridgeClient';
import { startTestSimulator } from '../support/startTestSimulator';

describe('admin routes beyond loopback', () => {
  let sim: RunningSimulator;
  let url: string;
  beforeAll(async () => {
    // bound on every interface; the test itself only talks to 127.0.0.1
    sim = await startTestSimulator({ host: '0.0.0.0' });
    url = sim.baseUrl.replace('0.0.0.0', '127.0.0.1');
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('need the default API key; the public routes do not', async () => {
    expect(await requestJson(`${url}/admin/api-keys`, { method: 'GET' })).toMatchObject({ status: 403, body: { errorCode: 'ADMIN_KEY_REQUIRED' } });
    expect(await requestJson(`${url}/admin/solver/rules`, { method: 'POST', body: { action: { kind: 'never' } } })).toMatchObject({ status: 403 });
    const other = await requestJson<{ apiKey: string }>(`${url}/admin/api-keys`, { method: 'POST', body: { name: 'x' }, headers: { 'x-api-key': sim.apiKey } });
    expect(other.status).toBe(201);
    // another key is not the admin's
    expect((await requestJson(`${url}/admin/api-keys`, { method: 'GET', headers: { 'x-api-key': other.body.apiKey } })).status).toBe(403);
    expect((await requestJson(`${url}/admin/api-keys`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } })).status).toBe(200);
    expect((await requestJson(`${url}/chains`, { method: 'GET' })).status).toBe(200);
    expect(sim.control.solver.listRules()).toEqual([]);
  });

  it('loopback hosts are told apart from the others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.test']) expect(isLoopbackHost(host), host).toBe(false);
  });
});
