import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createWalletClient, defineChain, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import WebSocket from 'ws';
import { get } from 'node:http';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { formatStartSummary, startSummaryJson } from '../../src/formatStartSummary';
import { getJson, postJson, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { bvmRpc } from '../support/bvmClient';
import { freePortRun, lanAddress } from '../support/lanAddress';

/**
 * One simulator shared over the network (docs/shared-host.md): `--host 0.0.0.0` binds the API and
 * every chain's servers on every interface, and a client that reaches the API at this machine's
 * non-loopback address gets chain URLs at that address, each answering there.
 */

const SVM = 792703809;
const BVM = 8253038;
const LVM = 3586256;
const LAN = lanAddress();
if (!LAN) console.warn('sharedHost.test.ts: this machine has no non-loopback IPv4 address; the tests reaching the simulator from the network are skipped');

interface ListedChain {
  id: number;
  httpRpcUrl: string;
  wsRpcUrl: string;
  explorerUrl: string;
}

describe.skipIf(!LAN)('a simulator on --host 0.0.0.0, reached at this machine’s network address', () => {
  let sim: RunningSimulator;
  let api: string;
  let chains: ListedChain[];
  let basePort: number;
  let bvmPort: number;

  beforeAll(async () => {
    basePort = await freePortRun(1);
    bvmPort = await freePortRun(2);
    sim = await startSimulator({
      host: '0.0.0.0',
      port: 0,
      env: {},
      log: () => undefined,
      // its own Anvils (the pooled ones listen on loopback only), and one chain of every other kind
      chains: [{ id: 1 }, { id: 8453 }, { id: SVM }, { id: BVM }, { id: LVM }],
      chainPorts: { '8453': basePort, [String(BVM)]: bvmPort },
    });
    api = `http://${LAN}:${new URL(sim.listenUrl).port}`;
    chains = (await getJson<{ chains: ListedChain[] }>(`${api}/chains`)).body.chains;
  }, 120_000);

  afterAll(async () => {
    await sim?.stop();
  });

  const chain = (id: number) => chains.find((entry) => entry.id === id)!;

  it('GET /chains through that address hands out every RPC, websocket and explorer URL at it; --chain-port fixes a port', () => {
    for (const listed of chains) {
      expect(new URL(listed.httpRpcUrl).hostname, `${listed.id} httpRpcUrl`).toBe(LAN);
      if (listed.wsRpcUrl) expect(new URL(listed.wsRpcUrl).hostname, `${listed.id} wsRpcUrl`).toBe(LAN);
      expect(listed.explorerUrl, `${listed.id} explorerUrl`).toBe(`${api}/explorer/${listed.id}`);
    }
    expect(chain(8453).httpRpcUrl).toBe(`http://${LAN}:${basePort}`);
    expect(chain(BVM).httpRpcUrl).toBe(`http://${LAN}:${bvmPort}`);
    // Solana's websocket is its RPC port + 1
    expect(Number(new URL(chain(SVM).wsRpcUrl).port)).toBe(Number(new URL(chain(SVM).httpRpcUrl).port) + 1);
  });

  it('another Host reaching the API gets the chain URLs at that host instead', async () => {
    const { port } = new URL(api);
    // fetch sends the Host of its URL whatever it is told; node:http sends the one given
    const body = await new Promise<string>((resolve, reject) => {
      get(`${api}/chains`, { headers: { host: `intentsim.example.test:${port}` } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
      }).once('error', reject);
    });
    const listed = (JSON.parse(body) as { chains: ListedChain[] }).chains.find((entry) => entry.id === 8453)!;
    expect(listed.httpRpcUrl).toBe(`http://intentsim.example.test:${basePort}`);
    expect(listed.explorerUrl).toBe(`http://intentsim.example.test:${port}/explorer/8453`);
  });

  it('each chain answers at its handed-out URL: EVM, Solana RPC and websocket, Bitcoin RPC and Esplora, the exchange API', async () => {
    for (const id of [1, 8453]) {
      const answer = await postJson(chain(id).httpRpcUrl, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
      expect(Number.parseInt(answer.body.result, 16), `chain ${id}`).toBe(id);
    }
    expect((await postJson(chain(SVM).httpRpcUrl, { jsonrpc: '2.0', id: 1, method: 'getHealth' })).body.result).toBe('ok');
    expect((await postJson(chain(SVM).httpRpcUrl, { jsonrpc: '2.0', id: 1, method: 'getVersion' })).body.result).toHaveProperty('solana-core');
    const subscription = await new Promise<unknown>((resolve, reject) => {
      const socket = new WebSocket(chain(SVM).wsRpcUrl);
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' })));
      socket.once('message', (data) => {
        socket.terminate();
        resolve(JSON.parse(String(data)).result);
      });
    });
    expect(typeof subscription).toBe('number');
    expect(await bvmRpc<number>(chain(BVM).httpRpcUrl, 'getblockcount')).toBeGreaterThan(0);
    // Esplora is in --json (GET /chains has no field for it), on the Bitcoin chain's port + 1
    const listedInJson = startSummaryJson(sim).chains as Array<{ id: number; esploraUrl?: string }>;
    const esploraUrl = listedInJson.find((entry) => entry.id === BVM)!.esploraUrl!;
    expect(esploraUrl).toBe(`http://${LAN}:${bvmPort + 1}`);
    expect(Number(await (await fetch(`${esploraUrl}/blocks/tip/height`)).text())).toBeGreaterThan(0);
    expect((await getJson(`${chain(LVM).httpRpcUrl}/api/v1/currentHeight`)).body).toHaveProperty('height');
  });

  it('admin routes reached from the network need the default API key', async () => {
    expect(await requestJson(`${api}/admin/api-keys`, { method: 'GET' })).toMatchObject({ status: 403, body: { errorCode: 'ADMIN_KEY_REQUIRED' } });
    expect((await requestJson(`${api}/admin/api-keys`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } })).status).toBe(200);
  });

  it('a bridge quoted, paid and watched through those URLs alone succeeds', async () => {
    const user = sim.accounts[1]!;
    const recipient = sim.accounts[2]!.address as Address;
    const viemChain = (id: number) => defineChain({ id, name: `chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain(id).httpRpcUrl] } } });
    const origin = createPublicClient({ chain: viemChain(1), transport: http(chain(1).httpRpcUrl) });
    const destination = createPublicClient({ chain: viemChain(8453), transport: http(chain(8453).httpRpcUrl) });
    const before = await destination.getBalance({ address: recipient });
    const quote = await postJson(`${api}/quote/v2`, {
      user: user.address,
      recipient,
      originChainId: 1,
      destinationChainId: 8453,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '50000000000000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const item = quote.body.steps[0].items[0].data as { chainId: number; to: Address; data: Hex; value: string };
    const wallet = createWalletClient({ account: privateKeyToAccount(user.privateKey as Hex), chain: viemChain(1), transport: http(chain(1).httpRpcUrl) });
    const depositHash = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value) });
    expect((await origin.waitForTransactionReceipt({ hash: depositHash, pollingInterval: 20 })).status).toBe('success');
    const status = await waitForSettledStatus(api, quote.body.steps[0].requestId);
    expect(status).toMatchObject({ status: 'success', inTxHashes: [depositHash] });
    expect((await destination.getTransactionReceipt({ hash: status.txHashes[0] as Hex })).status).toBe('success');
    expect((await destination.getBalance({ address: recipient })) - before).toBe(BigInt(quote.body.details.currencyOut.amount));
  }, 60_000);

  it('the start summary and --json say the URLs follow the Host header, shown at this machine’s first non-loopback IPv4', () => {
    const json = startSummaryJson(sim) as { baseUrl: string; publicUrlFrom: string; chains: Array<{ id: number; rpcUrl: string; wsRpcUrl: string }> };
    expect(json.publicUrlFrom).toBe('host-header');
    expect(json.baseUrl).toBe(api);
    for (const entry of json.chains) expect(new URL(entry.rpcUrl).hostname, `${entry.id}`).toBe(LAN);
    expect(json.chains.find((entry) => entry.id === 8453)!.rpcUrl).toBe(`http://${LAN}:${basePort}`);
    const summary = formatStartSummary(sim);
    expect(summary).toContain(`API        ${api}\nURLs       follow the Host each client reaches the API by (--host 0.0.0.0); shown here at ${LAN}`);
    expect(summary).toMatch(new RegExp(`\\n  8453 +Base +http://${LAN!.replaceAll('.', '\\.')}:${basePort} `));
  });
});
