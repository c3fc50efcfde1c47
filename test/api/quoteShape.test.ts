import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFunctionData, erc20Abi, formatUnits, zeroAddress, type Address, type Hex } from 'viem';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { postJson, publicClientFor, type QuoteBody } from '../support/bridgeClient';
import { startTestSimulator } from '../support/startTestSimulator';
import { pooledChains } from '../support/pooledNodes';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

// covers: endpoint:POST /quote/v2

const AMOUNT_OBJECT_KEYS = ['amount', 'amountFormatted', 'amountUsd', 'currency', 'minimumAmount'];
const CURRENCY_KEYS = ['address', 'chainId', 'decimals', 'metadata', 'name', 'symbol'];

function expectAmountObject(value: any, label: string): void {
  expect(Object.keys(value).sort(), label).toEqual(AMOUNT_OBJECT_KEYS);
  expect(Object.keys(value.currency).sort(), label).toEqual(CURRENCY_KEYS);
  expect(typeof value.currency.chainId, label).toBe('number');
  expect(typeof value.currency.decimals, label).toBe('number');
  expect(typeof value.currency.metadata.logoURI, label).toBe('string');
  expect(typeof value.currency.metadata.verified, label).toBe('boolean');
  expect(value.amount, label).toMatch(/^[0-9]+$/);
  expect(value.minimumAmount, label).toMatch(/^[0-9]+$/);
  expect(value.amountFormatted, label).toBe(formatUnits(BigInt(value.amount), value.currency.decimals));
  expect(value.amountUsd, label).toMatch(/^-?[0-9]+(\.[0-9]+)?$/);
}

/** Checks every §2.2 field of a quote response; returns the deposit step. */
function expectQuoteShape(quote: any, expected: { origin: number; destination: number; user: string; recipient: string; stepIds: string[] }) {
  expect(Object.keys(quote).sort()).toEqual(['details', 'fees', 'protocol', 'steps']);
  expect(quote.steps.map((s: any) => s.id)).toEqual(expected.stepIds);

  const requestId = quote.steps[0].requestId;
  expect(requestId).toMatch(/^0x[0-9a-f]{64}$/);
  for (const step of quote.steps) {
    expect(Object.keys(step).sort()).toEqual(['action', 'depositAddress', 'description', 'id', 'items', 'kind', 'requestId']);
    expect(typeof step.action).toBe('string');
    expect(step.action.length).toBeGreaterThan(0);
    expect(typeof step.description).toBe('string');
    expect(step.description.length).toBeGreaterThan(0);
    expect(step.kind).toBe('transaction');
    expect(step.requestId).toBe(requestId);
    expect(step.depositAddress).toBe('');
    expect(step.items.length).toBeGreaterThan(0);
    for (const item of step.items) {
      expect(item.status).toBe('incomplete');
      expect(Object.keys(item.data).sort()).toEqual(['chainId', 'data', 'from', 'gas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'to', 'value']);
      expect(item.data.from).toBe(expected.user);
      expect(item.data.chainId).toBe(expected.origin);
      expect(item.data.data).toMatch(/^0x[0-9a-f]+$/);
      for (const field of ['value', 'gas', 'maxFeePerGas', 'maxPriorityFeePerGas']) expect(item.data[field], field).toMatch(/^[0-9]+$/);
      expect(BigInt(item.data.gas)).toBeGreaterThan(21_000n);
      expect(BigInt(item.data.maxFeePerGas)).toBeGreaterThanOrEqual(BigInt(item.data.maxPriorityFeePerGas));
      if (step.id === 'deposit') {
        expect(item.check).toEqual({ endpoint: `/intents/status?requestId=${requestId}`, method: 'GET' });
      } else {
        expect(item.check).toBeUndefined();
      }
    }
  }

  expect(Object.keys(quote.fees).sort()).toEqual(['app', 'gas', 'relayer', 'relayerGas', 'relayerService', 'subsidized']);
  for (const [key, fee] of Object.entries(quote.fees)) expectAmountObject(fee, `fees.${key}`);
  expect(BigInt(quote.fees.relayer.amount)).toBe(BigInt(quote.fees.relayerGas.amount) + BigInt(quote.fees.relayerService.amount));
  expect(quote.fees.app.amount).toBe('0');
  expect(quote.fees.subsidized.amount).toBe('0');
  expect(quote.fees.gas.currency).toMatchObject({ chainId: expected.origin, address: zeroAddress, decimals: 18 });

  const d = quote.details;
  expect(Object.keys(d).sort()).toEqual(
    [
      'currencyIn',
      'currencyOut',
      'expandedPriceImpact',
      'isFixedRate',
      'operation',
      'rate',
      'recipient',
      'refundCurrency',
      'route',
      'sender',
      'slippageTolerance',
      'swapImpact',
      'timeEstimate',
      'totalImpact',
      'userBalance',
    ].sort(),
  );
  expect(d.operation).toBe('bridge');
  expect(d.sender).toBe(expected.user);
  expect(d.recipient).toBe(expected.recipient);
  for (const key of ['currencyIn', 'currencyOut', 'refundCurrency']) expectAmountObject(d[key], `details.${key}`);
  expect(d.currencyIn.currency.chainId).toBe(expected.origin);
  expect(d.currencyOut.currency.chainId).toBe(expected.destination);
  expect(d.refundCurrency).toEqual(d.currencyIn);
  for (const key of ['totalImpact', 'swapImpact']) {
    expect(Object.keys(d[key]).sort()).toEqual(['percent', 'usd']);
    expect(typeof d[key].usd).toBe('string');
    expect(typeof d[key].percent).toBe('string');
  }
  expect(Object.keys(d.expandedPriceImpact).sort()).toEqual(['app', 'execution', 'relay', 'sponsored', 'swap']);
  for (const part of Object.values(d.expandedPriceImpact) as any[]) expect(Object.keys(part)).toEqual(['usd']);
  expect(d.rate).toMatch(/^[0-9]+(\.[0-9]+)?$/);
  for (const side of ['origin', 'destination']) {
    expect(Object.keys(d.slippageTolerance[side]).sort()).toEqual(['percent', 'usd', 'value']);
  }
  expect(typeof d.timeEstimate).toBe('number');
  expect(d.userBalance).toMatch(/^[0-9]+$/);
  expect(d.isFixedRate).toBe(false);
  for (const side of ['origin', 'destination']) {
    expect(Object.keys(d.route[side]).sort()).toEqual(['inputCurrency', 'outputCurrency', 'router']);
    expectAmountObject(d.route[side].inputCurrency, `route.${side}.inputCurrency`);
    expectAmountObject(d.route[side].outputCurrency, `route.${side}.outputCurrency`);
    expect(typeof d.route[side].router).toBe('string');
  }
  return quote.steps.find((s: any) => s.id === 'deposit');
}

describe('POST /quote/v2 response shape (SPEC §2.2)', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('a native-currency quote has every §2.2 field, with a deposit step that pays the depository', async () => {
    const [origin, destination] = [sim.chains[0]!.id, sim.chains[1]!.id];
    const user = sim.accounts[4]!.address;
    const recipient = sim.accounts[5]!.address;
    const response = await postJson(`${sim.baseUrl}/quote/v2`, {
      user,
      recipient,
      originChainId: origin,
      destinationChainId: destination,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '20000000000000000',
      tradeType: 'EXACT_INPUT',
      slippageTolerance: '100',
    } satisfies QuoteBody);
    expect(response.status).toBe(200);
    const quote = response.body;
    const deposit = expectQuoteShape(quote, { origin, destination, user, recipient, stepIds: ['deposit'] });

    const depository = evmChainOf(sim, origin).contractAddresses.depository;
    const item = deposit.items[0].data;
    expect(item.to).toBe(depository);
    expect(item.value).toBe('20000000000000000');
    const call = decodeFunctionData({ abi: depositoryArtifact.abi, data: item.data as Hex });
    expect(call).toEqual({ functionName: 'depositNative', args: [user, deposit.requestId] });

    expect(quote.details.currencyIn).toMatchObject({ amount: '20000000000000000', amountFormatted: '0.02', amountUsd: '60' });
    expect(quote.details.currencyIn.currency).toEqual({
      chainId: origin,
      address: zeroAddress,
      symbol: 'ETH',
      name: 'Ether',
      decimals: 18,
      metadata: { logoURI: 'https://intentsim.invalid/logos/eth.png', verified: true, isNative: true },
    });
    const out = BigInt(quote.details.currencyOut.amount);
    // EXACT_INPUT: out = in − relayerGas − relayerService (same currency), minimum = out × 0.99
    expect(out).toBe(20_000_000_000_000_000n - BigInt(quote.fees.relayer.amount));
    expect(quote.fees.relayerService.amount).toBe('20000000000000'); // 10 bps of 0.02 ETH
    expect(BigInt(quote.details.currencyOut.minimumAmount)).toBe((out * 9_900n) / 10_000n);
    expect(quote.details.slippageTolerance.destination).toMatchObject({ percent: '1', value: (out - (out * 9_900n) / 10_000n).toString() });
    expect(quote.details.slippageTolerance.origin).toEqual({ usd: '0', value: '0', percent: '0' });
    expect(quote.details.timeEstimate).toBe(2);
    const { serviceReceiver } = evmChainOf(sim, origin).contractAddresses;
    expect(quote.details.route.origin).toMatchObject({ router: depository, inputCurrency: { amount: '20000000000000000' } });
    expect(quote.details.route.destination.router).toBe(serviceReceiver);
    expect(quote.details.route.destination.outputCurrency.amount).toBe(out.toString());

    const balance = await publicClientFor(sim, origin).getBalance({ address: user as Address });
    expect(quote.details.userBalance).toBe(balance.toString());
  });

  it('a stablecoin quote (EXACT_OUTPUT) has every §2.2 field, with approve then deposit', async () => {
    const [origin, destination] = [sim.chains[2]!.id, sim.chains[0]!.id];
    const user = sim.accounts[6]!.address;
    const originUsdc = evmChainOf(sim, origin).contractAddresses.stablecoin;
    const destinationUsdc = evmChainOf(sim, destination).contractAddresses.stablecoin;
    const response = await postJson(`${sim.baseUrl}/quote/v2`, {
      user,
      originChainId: origin,
      destinationChainId: destination,
      originCurrency: originUsdc,
      destinationCurrency: destinationUsdc,
      amount: '1000000',
      tradeType: 'EXACT_OUTPUT',
    } satisfies QuoteBody);
    expect(response.status).toBe(200);
    const quote = response.body;
    const deposit = expectQuoteShape(quote, { origin, destination, user, recipient: user, stepIds: ['approve', 'deposit'] });

    const amountIn = BigInt(quote.details.currencyIn.amount);
    const approve = quote.steps[0].items[0].data;
    expect(approve.to).toBe(originUsdc);
    expect(approve.value).toBe('0');
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data })).toEqual({
      functionName: 'approve',
      args: [evmChainOf(sim, origin).contractAddresses.depository, amountIn],
    });
    const call = decodeFunctionData({ abi: depositoryArtifact.abi, data: deposit.items[0].data.data as Hex });
    expect(call).toEqual({ functionName: 'depositErc20', args: [user, originUsdc, amountIn, deposit.requestId] });

    expect(quote.details.currencyOut).toMatchObject({ amount: '1000000', minimumAmount: '1000000', amountFormatted: '1', amountUsd: '1' });
    expect(quote.details.currencyOut.currency).toMatchObject({ chainId: destination, address: destinationUsdc, symbol: 'USDC', decimals: 6 });
    expect(amountIn).toBe(1_000_000n + BigInt(quote.fees.relayer.amount));
    expect(quote.fees.relayer.currency.address).toBe(originUsdc);
    expect(quote.details.slippageTolerance.destination).toEqual({ usd: '0', value: '0', percent: '0' });

    const balance = await publicClientFor(sim, origin).readContract({ address: originUsdc, abi: erc20Abi, functionName: 'balanceOf', args: [user as Address] });
    expect(quote.details.userBalance).toBe(balance.toString());
    expect(balance).toBeGreaterThan(0n);
  });

  it('whole-response snapshot, with addresses, ids and gas-price-dependent amounts normalised', async () => {
    const [origin, destination] = [sim.chains[0]!.id, sim.chains[1]!.id];
    const user = sim.accounts[7]!.address;
    const response = await postJson(`${sim.baseUrl}/quote/v2`, {
      user,
      originChainId: origin,
      destinationChainId: destination,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '1000000000000000000',
      tradeType: 'EXACT_INPUT',
    } satisfies QuoteBody);
    expect(response.status).toBe(200);
    const names = new Map<string, string>([
      [user.toLowerCase(), '<user>'],
      [evmChainOf(sim, origin).contractAddresses.depository.toLowerCase(), '<depository>'],
      [zeroAddress, '<zero>'],
      [response.body.steps[0].requestId, '<requestId>'],
    ]);
    expect(normaliseQuote(response.body, names)).toMatchInlineSnapshot(`
      {
        "details": {
          "currencyIn": {
            "amount": "1000000000000000000",
            "amountFormatted": "1",
            "amountUsd": "3000",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "1000000000000000000",
          },
          "currencyOut": {
            "amount": "<gas-dependent>",
            "amountFormatted": "<gas-dependent>",
            "amountUsd": "<gas-dependent>",
            "currency": {
              "address": "<zero>",
              "chainId": 8453,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "<gas-dependent>",
          },
          "expandedPriceImpact": {
            "app": {
              "usd": "0",
            },
            "execution": {
              "usd": "<gas-dependent>",
            },
            "relay": {
              "usd": "-3",
            },
            "sponsored": {
              "usd": "0",
            },
            "swap": {
              "usd": "0",
            },
          },
          "isFixedRate": false,
          "operation": "bridge",
          "rate": "<gas-dependent>",
          "recipient": "<user>",
          "refundCurrency": {
            "amount": "1000000000000000000",
            "amountFormatted": "1",
            "amountUsd": "3000",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "1000000000000000000",
          },
          "route": {
            "destination": {
              "inputCurrency": {
                "amount": "<gas-dependent>",
                "amountFormatted": "<gas-dependent>",
                "amountUsd": "<gas-dependent>",
                "currency": {
                  "address": "<zero>",
                  "chainId": 8453,
                  "decimals": 18,
                  "metadata": {
                    "isNative": true,
                    "logoURI": "https://intentsim.invalid/logos/eth.png",
                    "verified": true,
                  },
                  "name": "Ether",
                  "symbol": "ETH",
                },
                "minimumAmount": "<gas-dependent>",
              },
              "outputCurrency": {
                "amount": "<gas-dependent>",
                "amountFormatted": "<gas-dependent>",
                "amountUsd": "<gas-dependent>",
                "currency": {
                  "address": "<zero>",
                  "chainId": 8453,
                  "decimals": 18,
                  "metadata": {
                    "isNative": true,
                    "logoURI": "https://intentsim.invalid/logos/eth.png",
                    "verified": true,
                  },
                  "name": "Ether",
                  "symbol": "ETH",
                },
                "minimumAmount": "<gas-dependent>",
              },
              "router": "0x59F699674A3C4c2cbdA7828df581Ca0818256a95",
            },
            "origin": {
              "inputCurrency": {
                "amount": "1000000000000000000",
                "amountFormatted": "1",
                "amountUsd": "3000",
                "currency": {
                  "address": "<zero>",
                  "chainId": 1,
                  "decimals": 18,
                  "metadata": {
                    "isNative": true,
                    "logoURI": "https://intentsim.invalid/logos/eth.png",
                    "verified": true,
                  },
                  "name": "Ether",
                  "symbol": "ETH",
                },
                "minimumAmount": "1000000000000000000",
              },
              "outputCurrency": {
                "amount": "1000000000000000000",
                "amountFormatted": "1",
                "amountUsd": "3000",
                "currency": {
                  "address": "<zero>",
                  "chainId": 1,
                  "decimals": 18,
                  "metadata": {
                    "isNative": true,
                    "logoURI": "https://intentsim.invalid/logos/eth.png",
                    "verified": true,
                  },
                  "name": "Ether",
                  "symbol": "ETH",
                },
                "minimumAmount": "1000000000000000000",
              },
              "router": "<depository>",
            },
          },
          "sender": "<user>",
          "slippageTolerance": {
            "destination": {
              "percent": "0.5",
              "usd": "<gas-dependent>",
              "value": "<gas-dependent>",
            },
            "origin": {
              "percent": "0",
              "usd": "0",
              "value": "0",
            },
          },
          "swapImpact": {
            "percent": "0",
            "usd": "0",
          },
          "timeEstimate": 2,
          "totalImpact": {
            "percent": "<gas-dependent>",
            "usd": "<gas-dependent>",
          },
          "userBalance": "10000000000000000000000",
        },
        "fees": {
          "app": {
            "amount": "0",
            "amountFormatted": "0",
            "amountUsd": "0",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "0",
          },
          "gas": {
            "amount": "<gas-dependent>",
            "amountFormatted": "<gas-dependent>",
            "amountUsd": "<gas-dependent>",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "<gas-dependent>",
          },
          "relayer": {
            "amount": "<gas-dependent>",
            "amountFormatted": "<gas-dependent>",
            "amountUsd": "<gas-dependent>",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "<gas-dependent>",
          },
          "relayerGas": {
            "amount": "<gas-dependent>",
            "amountFormatted": "<gas-dependent>",
            "amountUsd": "<gas-dependent>",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "<gas-dependent>",
          },
          "relayerService": {
            "amount": "1000000000000000",
            "amountFormatted": "0.001",
            "amountUsd": "3",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "1000000000000000",
          },
          "subsidized": {
            "amount": "0",
            "amountFormatted": "0",
            "amountUsd": "0",
            "currency": {
              "address": "<zero>",
              "chainId": 1,
              "decimals": 18,
              "metadata": {
                "isNative": true,
                "logoURI": "https://intentsim.invalid/logos/eth.png",
                "verified": true,
              },
              "name": "Ether",
              "symbol": "ETH",
            },
            "minimumAmount": "0",
          },
        },
        "protocol": {
          "v2": {
            "hubType": "onchain",
            "orderData": {
              "fees": [
                {
                  "amount": "<gas-dependent>",
                  "chainId": "ethereum",
                  "currency": "<zero>",
                  "recipient": "0x6D58073AeeB28068c5925D618DA9f4c4F35727b3",
                },
              ],
              "inputs": [
                {
                  "payment": {
                    "amount": "1000000000000000000",
                    "chainId": "ethereum",
                    "currency": "<zero>",
                    "weight": "1",
                  },
                  "refunds": [
                    {
                      "chainId": "ethereum",
                      "currency": "<zero>",
                      "deadline": "<quote-dependent>",
                      "extraData": "0x",
                      "minimumAmount": "1000000000000000000",
                      "recipient": "<user>",
                    },
                  ],
                },
              ],
              "output": {
                "calls": [],
                "chainId": "base",
                "deadline": "<quote-dependent>",
                "extraData": "0x",
                "payments": [
                  {
                    "currency": "<zero>",
                    "expectedAmount": "<gas-dependent>",
                    "minimumAmount": "<gas-dependent>",
                    "recipient": "<user>",
                  },
                ],
              },
              "salt": "<quote-dependent>",
              "solver": "0x6D58073AeeB28068c5925D618DA9f4c4F35727b3",
              "solverChainId": "ethereum",
              "version": "v1",
            },
            "orderId": "<quote-dependent>",
            "paymentDetails": {
              "amount": "1000000000000000000",
              "chainId": "ethereum",
              "currency": "<zero>",
              "depository": "<depository>",
            },
          },
        },
        "steps": [
          {
            "action": "Confirm transaction in your wallet",
            "depositAddress": "",
            "description": "Depositing funds to the relayer to execute the request for ETH",
            "id": "deposit",
            "items": [
              {
                "check": {
                  "endpoint": "/intents/status?requestId=<requestId>",
                  "method": "GET",
                },
                "data": {
                  "chainId": 1,
                  "data": "<calldata>",
                  "from": "<user>",
                  "gas": "<gas-dependent>",
                  "maxFeePerGas": "<gas-dependent>",
                  "maxPriorityFeePerGas": "<gas-dependent>",
                  "to": "<depository>",
                  "value": "1000000000000000000",
                },
                "status": "incomplete",
              },
            ],
            "kind": "transaction",
            "requestId": "<requestId>",
          },
        ],
      }
    `);
  });
});

describe('request ids are deterministic (seed + quote sequence + body)', () => {
  const bodies = (sim: RunningSimulator): QuoteBody[] => {
    const [origin, destination] = [sim.chains[0]!.id, sim.chains[0]!.id];
    const base = {
      user: sim.accounts[1]!.address,
      originChainId: origin,
      destinationChainId: destination,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      tradeType: 'EXACT_INPUT' as const,
    };
    // the third body repeats the first: identical quotes still get distinct ids
    return [
      { ...base, amount: '10000000000000000' },
      { ...base, amount: '30000000000000000', recipient: sim.accounts[2]!.address },
      { ...base, amount: '10000000000000000' },
    ];
  };

  /** Starts a simulator with `seed` (one chain: a start costs less per chain), quotes the same sequence (native, the chain to itself), stops it; returns the ids. */
  async function idsFor(seed: number): Promise<string[]> {
    const sim = await startTestSimulator({ seed, chains: pooledChains([8453]) });
    try {
      const ids: string[] = [];
      for (const body of bodies(sim)) {
        const response = await postJson(`${sim.baseUrl}/quote/v2`, body);
        expect(response.status).toBe(200);
        ids.push(response.body.steps[0].requestId);
      }
      return ids;
    } finally {
      await sim.stop();
    }
  }

  it('the same seed and the same sequence of quotes give the same ids; another seed gives other ids', async () => {
    const first = await idsFor(7);
    const again = await idsFor(7);
    const otherSeed = await idsFor(8);

    expect(new Set(first).size).toBe(3);
    expect(again).toEqual(first);
    expect(new Set(otherSeed).size).toBe(3);
    for (const id of otherSeed) expect(first).not.toContain(id);
  });
});

/**
 * Replaces known addresses/ids by names, calldata by a marker, and every figure that depends on
 * the chain's current gas price (the fill gas is charged to the user) by `<gas-dependent>`.
 */
function normaliseQuote(quote: any, names: Map<string, string>): unknown {
  const GAS_DEPENDENT = new Set([
    'fees.gas.amount',
    'fees.gas.amountFormatted',
    'fees.gas.amountUsd',
    'fees.gas.minimumAmount',
    'fees.relayer.amount',
    'fees.relayer.amountFormatted',
    'fees.relayer.amountUsd',
    'fees.relayer.minimumAmount',
    'fees.relayerGas.amount',
    'fees.relayerGas.amountFormatted',
    'fees.relayerGas.amountUsd',
    'fees.relayerGas.minimumAmount',
    'details.currencyOut.amount',
    'details.currencyOut.amountFormatted',
    'details.currencyOut.amountUsd',
    'details.currencyOut.minimumAmount',
    'details.totalImpact.usd',
    'details.totalImpact.percent',
    'details.expandedPriceImpact.execution.usd',
    'details.rate',
    'details.slippageTolerance.destination.usd',
    'details.slippageTolerance.destination.value',
    'details.route.destination.inputCurrency.amount',
    'details.route.destination.inputCurrency.amountFormatted',
    'details.route.destination.inputCurrency.amountUsd',
    'details.route.destination.inputCurrency.minimumAmount',
    'details.route.destination.outputCurrency.amount',
    'details.route.destination.outputCurrency.amountFormatted',
    'details.route.destination.outputCurrency.amountUsd',
    'details.route.destination.outputCurrency.minimumAmount',
    'steps.items.data.gas',
    'steps.items.data.maxFeePerGas',
    'steps.items.data.maxPriorityFeePerGas',
    'protocol.v2.orderData.output.payments.expectedAmount',
    'protocol.v2.orderData.output.payments.minimumAmount',
    'protocol.v2.orderData.fees.amount',
    // depend on the quote time and on the gas-dependent amounts above
    'protocol.v2.orderData.inputs.refunds.deadline',
    'protocol.v2.orderData.output.deadline',
    'protocol.v2.orderData.salt',
    'protocol.v2.orderId',
  ]);
  const walk = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, path));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]));
    }
    if (GAS_DEPENDENT.has(path)) return path.startsWith('protocol') && !path.includes('mount') ? '<quote-dependent>' : '<gas-dependent>';
    if (path === 'steps.items.data.data') return '<calldata>';
    if (typeof value === 'string') {
      const named = names.get(value.toLowerCase());
      if (named) return named;
      let replaced = value;
      for (const [raw, name] of names) replaced = replaced.split(raw).join(name);
      return replaced;
    }
    return value;
  };
  return walk(quote, '');
}
