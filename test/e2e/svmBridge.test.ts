import { solanaConnection } from '../support/solanaConnections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { erc20Abi, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, postJson, publicClientFor, usdcOf, waitForSettledStatus } from '../support/bridgeClient';
import { expectPublishedRecord, expectPublishedType } from '../support/publishedApiTypes';
import { pooledChains } from '../support/pooledNodes';
import { sendSvmStepItem, type SvmStepItemData } from '../support/svmClient';
import { startSimulator } from '../../src/simulator';

// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success, status:refund

const SVM = 792703809;
const EVM = 8453;
const SOL = '11111111111111111111111111111111';

let sim: RunningSimulator;
let connection: Connection;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    env: {},
    log: () => undefined,
    chains: [...pooledChains([EVM]), { id: SVM }],
  });
  connection = solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl);
});

afterAll(async () => {
  await sim?.stop();
});

/** What the official SDK's SVM adapter does with a step item (test/support/svmClient.ts); no lookup tables here. */
async function sendStepItem(user: Keypair, data: SvmStepItemData): Promise<string> {
  expect(data.addressLookupTableAddresses).toEqual([]);
  return sendSvmStepItem(connection, user, data);
}

describe('SVM ↔ EVM through the simulator', () => {
  it('lists the SVM chain in /chains and its funded accounts in the start summary', async () => {
    const { body } = await getJson(`${sim.baseUrl}/chains`);
    const svm = body.chains.find((chain: { id: number }) => chain.id === SVM);
    expect(svm).toMatchObject({ vmType: 'svm', currency: { address: SOL, decimals: 9, symbol: 'SOL' }, explorerPaths: { transaction: expect.stringContaining('{TX_HASH}') } });
    const summary = sim.chains.find((chain) => chain.id === SVM)!;
    expect(summary.accounts?.length).toBe(10);
    expect(await connection.getBalance(new PublicKey(summary.accounts![0]!.address))).toBe(1000 * LAMPORTS_PER_SOL);
  });

  it('refuses an EVM address on the SVM side and an SVM address on the EVM side (INVALID_ADDRESS)', async () => {
    const evmUser = sim.accounts[0]!.address;
    const svmUser = Keypair.generate().publicKey.toBase58();
    const base = { originChainId: SVM, destinationChainId: EVM, originCurrency: SOL, destinationCurrency: '0x0000000000000000000000000000000000000000', amount: '100000000', tradeType: 'EXACT_INPUT' };
    const evmOnSvm = await postJson(`${sim.baseUrl}/quote/v2`, { ...base, user: evmUser, recipient: evmUser });
    expect(evmOnSvm).toMatchObject({ status: 400, body: { errorCode: 'INVALID_ADDRESS' } });
    const svmOnEvm = await postJson(`${sim.baseUrl}/quote/v2`, { ...base, user: svmUser, recipient: svmUser });
    expect(svmOnEvm).toMatchObject({ status: 400, body: { errorCode: 'INVALID_ADDRESS' } });
    // case matters: the stablecoin's mint lowercased is another address, and no currency
    const mint = await usdcOf(sim.baseUrl, SVM);
    const lowercased = await postJson(`${sim.baseUrl}/quote/v2`, { ...base, user: svmUser, recipient: evmUser, originCurrency: mint.toLowerCase() });
    expect(lowercased).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_CURRENCY' } });
  });

  it('what the SVM chain does not simulate is a 400 with an errorCode, never a 500: a deposit address, a reorg, automine off', async () => {
    const svmUser = Keypair.generate().publicKey.toBase58();
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      originChainId: SVM, destinationChainId: EVM, originCurrency: SOL, destinationCurrency: '0x0000000000000000000000000000000000000000',
      amount: '100000000', tradeType: 'EXACT_INPUT', user: svmUser, recipient: sim.accounts[0]!.address, useDepositAddress: true,
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(400);
    expect(quote.body).toMatchObject({ errorCode: 'UNSUPPORTED_ON_CHAIN', message: `useDepositAddress: Solana (${SVM}) has no deposit addresses` });
    // what a chain lacks is answered in one place, in one shape, through the control plane too
    await expect(sim.control.chain(SVM).setCode(svmUser, '0x00')).rejects.toMatchObject({ errorCode: 'UNSUPPORTED_ON_CHAIN', httpStatus: 400, message: `replacing the code at ${svmUser}: Solana (${SVM}) has no code to replace` });
    for (const [path, body] of [['reorg', { depth: 1 }], ['automine', { enabled: false }], ['interval-mining', { seconds: 2 }]] as const) {
      const answer = await postJson(`${sim.baseUrl}/admin/chains/${SVM}/${path}`, body);
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(typeof answer.body.errorCode, path).toBe('string');
    }
  });

  it('gasless execution is EVM-only: POST /execute on the SVM chain is UNSUPPORTED_ON_CHAIN, and a usePermit quote keeps its transaction step', async () => {
    const relayed = await postJson(`${sim.baseUrl}/execute`, {
      executionKind: 'rawCalls',
      data: { chainId: SVM, to: sim.accounts[0]!.address, data: '0x', value: '0' },
      executionOptions: { referrer: 'intentsim-test', subsidizeFees: false },
    });
    expect(relayed.status, JSON.stringify(relayed.body)).toBe(400);
    expect(relayed.body).toMatchObject({ errorCode: 'UNSUPPORTED_ON_CHAIN', message: `POST /execute and /execute/permits: Solana (${SVM}) has no gasless relayer (it runs on the EVM chains)` });
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      originChainId: SVM, destinationChainId: EVM, originCurrency: SOL, destinationCurrency: '0x0000000000000000000000000000000000000000',
      amount: '100000000', tradeType: 'EXACT_INPUT', user: Keypair.generate().publicKey.toBase58(), recipient: sim.accounts[0]!.address, usePermit: true,
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.steps.map((step: { kind: string }) => step.kind)).toEqual(['transaction']);
  });

  it('SOL → USDC on an EVM chain: a fresh keypair funded by requestAirdrop deposits with web3.js, the solver fills on the EVM chain', async () => {
    const user = Keypair.generate();
    const airdrop = await connection.requestAirdrop(user.publicKey, 5 * LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    const usdc = await usdcOf(sim.baseUrl, EVM);
    const recipient = sim.accounts[3]!.address as Address;
    const before = await publicClientFor(sim, EVM).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });

    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.publicKey.toBase58(),
      recipient,
      originChainId: SVM,
      destinationChainId: EVM,
      originCurrency: SOL,
      destinationCurrency: usdc,
      amount: String(LAMPORTS_PER_SOL),
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expectPublishedType('QuoteV2', quote.body, 'an SVM-origin quote');
    expect(quote.body.details.operation).toBe('swap');
    const step = quote.body.steps[0];
    expect(step).toMatchObject({ id: 'deposit', kind: 'transaction' });
    const item = step.items[0];
    expect(item.data.instructions.every((instruction: { data: string }) => /^[0-9a-f]*$/.test(instruction.data))).toBe(true);

    const signature = await sendStepItem(user, item.data);
    const status = await waitForSettledStatus(sim.baseUrl, step.requestId);
    expect(status.status).toBe('success');
    expect(status.inTxHashes).toContain(signature);
    expect((await expectPublishedRecord(sim, step.requestId, 'an SVM-origin record')).data.inTxs[0].txHash).toBe(signature);
    const after = await publicClientFor(sim, EVM).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    expect(after - before).toBe(BigInt(quote.body.details.currencyOut.amount));
    expect(await connection.getBalance(user.publicKey)).toBe(4 * LAMPORTS_PER_SOL - 5000);
  });

  it('USDC on an EVM chain → USDC on the SVM chain: the solver pays a fresh SVM recipient with a real SPL transfer (creating its token account)', async () => {
    const evmUsdc = await usdcOf(sim.baseUrl, EVM);
    const svmUsdc = await usdcOf(sim.baseUrl, SVM);
    const user = sim.accounts[4]!;
    const recipient = Keypair.generate().publicKey;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address,
      recipient: recipient.toBase58(),
      originChainId: EVM,
      destinationChainId: SVM,
      originCurrency: evmUsdc,
      destinationCurrency: svmUsdc,
      amount: '25000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const requestId = quote.body.steps.at(-1).requestId as string;
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    const fill = status.txHashes![0]!;
    const mined = await connection.getTransaction(fill, { maxSupportedTransactionVersion: 0 });
    expect(mined?.meta?.err).toBeNull();
    const accounts = await connection.getTokenAccountsByOwner(recipient, { mint: new PublicKey(svmUsdc) });
    expect(accounts.value).toHaveLength(1);
    const balance = await connection.getTokenAccountBalance(accounts.value[0]!.pubkey);
    expect(balance.value.amount).toBe(quote.body.details.currencyOut.amount);
    expect(balance.value.decimals).toBe(6);
  });

  it('a refunded SVM deposit goes back to the user as a real SOL transfer from the solver', async () => {
    const user = Keypair.generate();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(user.publicKey, 3 * LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.publicKey.toBase58(),
      recipient: sim.accounts[5]!.address,
      originChainId: SVM,
      destinationChainId: EVM,
      originCurrency: SOL,
      destinationCurrency: '0x0000000000000000000000000000000000000000',
      amount: String(LAMPORTS_PER_SOL),
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    const rule = sim.control.solver.addRule({ match: { requestId: step.requestId }, action: { kind: 'refund' } });
    try {
      await sendStepItem(user, step.items[0].data);
      const status = await waitForSettledStatus(sim.baseUrl, step.requestId);
      expect(status.status).toBe('refund');
      const refundEntry = sim.control.requests.get(step.requestId)!.outTxs.find((tx) => tx.type === 'refund')!;
      expect(refundEntry).toMatchObject({ chainId: SVM, status: 'success', fee: 5000n });
      const refund = refundEntry.txHash;
      const mined = await connection.getTransaction(refund, { maxSupportedTransactionVersion: 0 });
      expect(mined?.meta?.err).toBeNull();
      const index = mined!.transaction.message.staticAccountKeys.findIndex((key) => key.equals(user.publicKey));
      expect(mined!.meta!.postBalances[index]! - mined!.meta!.preBalances[index]!).toBeGreaterThan(0);
      expect(await connection.getBalance(user.publicKey)).toBeGreaterThan(2.9 * LAMPORTS_PER_SOL);
    } finally {
      sim.control.solver.removeRule(rule.id);
    }
  });
});
