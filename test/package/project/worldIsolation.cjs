// What the per-test isolation tests do on the shared simulator (chains 1 and 8453): a native bridge
// the solver fills, the requests the API key lists, an account's balance on a chain.
const ZERO = '0x0000000000000000000000000000000000000000';

/** The balance every funded account has when the simulator starts (10,000 ETH). */
const START_BALANCE = 10_000n * 10n ** 18n;

async function rpc(url, method, params) {
  const body = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Quotes a native bridge from chain 1 to 8453 for the first account, deposits it (Anvil's accounts are unlocked) and waits for its fill. */
async function bridgeOnce({ baseUrl, accounts, chains }) {
  const user = accounts[0].address;
  const quote = await (await fetch(`${baseUrl}/quote/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user, originChainId: 1, destinationChainId: 8453, originCurrency: ZERO, destinationCurrency: ZERO, amount: '10000000000000000', tradeType: 'EXACT_INPUT' }) })).json();
  const step = quote.steps[0];
  const { from, to, data, value } = step.items[0].data;
  await rpc(chains.find((chain) => chain.id === 1).rpcUrl, 'eth_sendTransaction', [{ from, to, data, value: `0x${BigInt(value).toString(16)}` }]);
  for (let attempt = 0; attempt < 200; attempt++) {
    const { status } = await (await fetch(`${baseUrl}/intents/status/v3?requestId=${step.requestId}`)).json();
    if (status === 'success') return step.requestId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the bridge ${step.requestId} did not succeed`);
}

/** The ids of the requests GET /requests/v3 lists. */
async function listedRequests({ baseUrl, apiKey }) {
  const { requests } = await (await fetch(`${baseUrl}/requests/v3`, { headers: { 'x-api-key': apiKey } })).json();
  return requests.map((request) => request.id);
}

async function balanceOnChain1({ chains, accounts }) {
  return BigInt(await rpc(chains.find((chain) => chain.id === 1).rpcUrl, 'eth_getBalance', [accounts[0].address, 'latest']));
}

module.exports = { START_BALANCE, bridgeOnce, listedRequests, balanceOnChain1 };
