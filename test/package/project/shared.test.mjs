// A node:test file: one simulator for the file through intentsim/jest's setup functions, read in the tests.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createGlobalSetup, globalTeardown, intentsimContext } from 'intentsim/jest';
import anvilChildren from './anvilChildren.cjs';

before(createGlobalSetup({ chains: [{ id: 1 }] }));
after(async () => {
  const anvils = anvilChildren();
  await globalTeardown();
  assert.equal(anvils.length, 1);
  const alive = anvils.filter((pid) => { try { process.kill(pid, 0); return true; } catch { return false; } });
  assert.deepEqual(alive, []);
});

test('the context names the running simulator', async () => {
  const { baseUrl, apiKey, chains, accounts } = intentsimContext();
  assert.match(apiKey, /./);
  assert.equal(accounts.length, 10);
  const body = await (await fetch(`${baseUrl}/chains`)).json();
  assert.deepEqual(body.chains.map((chain) => chain.id), chains.map((chain) => chain.id));
});

test('its chains answer JSON-RPC', async () => {
  const [chain] = intentsimContext().chains;
  const response = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
  assert.equal((await response.json()).result, '0x1');
});
