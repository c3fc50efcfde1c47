import { solanaConnection } from '../../support/solanaConnections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { address, getBase58Encoder } from '@solana/kit';
import { erc20Abi, type Address } from 'viem';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { SvmChain } from '../../../src/chains/svm/SvmChain';
import { chainAdapterOf } from '../../support/chainAdapterOf';
import { SVM_AGGREGATOR_PROGRAM, SVM_AGGREGATOR_SOURCE } from '../../../src/nodes/svm/svmAggregatorMarket';
import { fromStepInstruction, type SvmStepInstruction } from '../../../src/chains/svm/svmInstructions';
import { svmTransactionSize } from '../../../src/chains/svm/svmTransactionSize';
import { getJson, postJson, publicClientFor, waitForSettledStatus } from '../../support/bridgeClient';
import { pooledChains } from '../../support/pooledNodes';

// covers: limit:SVM transaction size @ Solana-origin quotes, POST /quote/v2, errorCode:TRANSACTION_TOO_LARGE
// covers: endpoint:POST /quote/v2, status:success

const SVM = 792703809;
const EVM = 8453;
const QUOTE_TIME_LIMIT = 1172;

let sim: RunningSimulator;
let connection: Connection;
/** The quote body of an SVM-origin MEME → Base USDC swap (MEME goes through the aggregator). */
let memoToUsdc: Record<string, unknown>;
let user: Keypair;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: SVM }] });
  const svmSummary = sim.chains.find((chain) => chain.id === SVM)!;
  connection = solanaConnection(svmSummary.rpcUrl);
  user = Keypair.fromSecretKey(new Uint8Array(getBase58Encoder().encode(svmSummary.accounts![2]!.privateKey)));
  const { body } = await getJson(`${sim.baseUrl}/chains`);
  const currencyOf = (chainId: number, symbol: string) =>
    body.chains.find((chain: { id: number }) => chain.id === chainId).erc20Currencies.find((currency: { symbol: string }) => currency.symbol === symbol).address as string;
  memoToUsdc = {
    user: user.publicKey.toBase58(),
    recipient: sim.accounts[5]!.address,
    originChainId: SVM,
    destinationChainId: EVM,
    originCurrency: currencyOf(SVM, 'MEME'),
    destinationCurrency: currencyOf(EVM, 'USDC'),
    amount: '100000000000', // 1,000,000 MEME (5 decimals) = $20
    tradeType: 'EXACT_INPUT',
  };
});

afterAll(async () => {
  await sim?.stop();
});

const quote = (extra: Record<string, unknown> = {}) => postJson(`${sim.baseUrl}/quote/v2`, { ...memoToUsdc, ...extra });
const itemOf = (body: { steps: Array<{ items: Array<{ data: { instructions: SvmStepInstruction[]; addressLookupTableAddresses: string[] } }> }> }) => body.steps[0]!.items[0]!.data;
/** The size the quote measured: the bytes the 400's message names. */
const sizeIn = (message: string) => Number(/would be (\d+) bytes/.exec(message)?.[1]);

describe('SPEC §4.6: an SVM-origin swap through the aggregator is held to 1172 bytes at quote time', () => {
  it('the default route (the longest, 5 hops) is over the limit: 400 TRANSACTION_TOO_LARGE naming 1172 and the 60 reserved bytes', async () => {
    const answer = await quote();
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.errorCode).toBe('TRANSACTION_TOO_LARGE');
    expect(answer.body.message).toContain('effective limit of 1172 bytes');
    expect(answer.body.message).toContain('1232 bytes and 60 are reserved for the compute-budget instructions');
    expect(answer.body.message).toContain('5 hops: MEME > GOV > ORACLE > STSOL > WSOL > USDC');
    expect(sizeIn(answer.body.message)).toBeGreaterThan(QUOTE_TIME_LIMIT);
  });

  it('maxRouteLength 4 shortens the route but is still over; 3 is under, and the item carries exactly the three hops and the deposit', async () => {
    const five = sizeIn((await quote()).body.message);
    const four = await quote({ maxRouteLength: 4 });
    expect(four.status, JSON.stringify(four.body)).toBe(400);
    expect(four.body.errorCode).toBe('TRANSACTION_TOO_LARGE');
    expect(four.body.message).toContain('4 hops');
    expect(sizeIn(four.body.message)).toBeGreaterThan(QUOTE_TIME_LIMIT);
    expect(sizeIn(four.body.message)).toBeLessThan(five);

    const three = await quote({ maxRouteLength: 3 });
    expect(three.status, JSON.stringify(three.body)).toBe(200);
    const { instructions, addressLookupTableAddresses } = itemOf(three.body);
    expect(addressLookupTableAddresses).toEqual([]);
    const hops = instructions.filter((instruction) => instruction.programId === SVM_AGGREGATOR_PROGRAM);
    expect(hops.map((hop) => Buffer.from(hop.data, 'hex').toString('utf8'))).toEqual(['hop 1/3 MEME>GOV', 'hop 2/3 GOV>ORACLE', 'hop 3/3 ORACLE>USDC']);
    // the hops come first, then the deposit (token account, transfer, request id memo)
    expect(instructions.slice(0, 3)).toEqual(hops);
    expect(instructions.length).toBe(6);
    expect(svmTransactionSize(address(user.publicKey.toBase58()), instructions.map(fromStepInstruction))).toBeLessThanOrEqual(QUOTE_TIME_LIMIT);

    // every account a hop names is on the ledger, owned as an aggregator's would be; the pool's
    // authority (index 6) is an address with no account, as a program-derived authority is
    for (const hop of hops) {
      const [, signer, , , program, state, authority, vaultIn, vaultOut] = hop.keys.map((key) => key.pubkey);
      expect(signer).toBe(user.publicKey.toBase58());
      const infos = await connection.getMultipleAccountsInfo(hop.keys.map((key) => new PublicKey(key.pubkey)));
      expect(hop.keys.flatMap((_, index) => (infos[index] === null ? [index] : []))).toEqual([6]);
      expect(infos[4]!.executable).toBe(true);
      expect(infos[5]!.owner.toBase58()).toBe(program);
      for (const vault of [vaultIn!, vaultOut!]) {
        const parsed = (await connection.getParsedAccountInfo(new PublicKey(vault))).value!.data as { parsed: { info: { owner: string; tokenAmount: { amount: string } } } };
        expect(parsed.parsed.info.owner).toBe(authority);
        expect(BigInt(parsed.parsed.info.tokenAmount.amount)).toBeGreaterThan(0n);
      }
      expect(state).toBeDefined();
    }
  });

  it("includedOriginSwapSources with the aggregator's source gives its direct route, under the limit; GET /swap-sources names it", async () => {
    const direct = await quote({ includedOriginSwapSources: [SVM_AGGREGATOR_SOURCE] });
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    const hops = itemOf(direct.body).instructions.filter((instruction) => instruction.programId === SVM_AGGREGATOR_PROGRAM);
    expect(hops.map((hop) => Buffer.from(hop.data, 'hex').toString('utf8'))).toEqual(['hop 1/1 MEME>USDC']);
    const sources = await getJson(`${sim.baseUrl}/swap-sources?chainId=${SVM}`);
    expect(sources.body.sources).toContain(SVM_AGGREGATOR_SOURCE);
    // a list naming no source of the chain has no route
    const unknown = await quote({ includedOriginSwapSources: ['no-such-venue'] });
    expect(unknown).toMatchObject({ status: 400, body: { errorCode: 'NO_SWAP_ROUTES_FOUND' } });
  });

  it('a quote with no origin swap (SOL) stays a plain deposit', async () => {
    const sol = await quote({ originCurrency: '11111111111111111111111111111111', amount: '100000000' });
    expect(sol.status, JSON.stringify(sol.body)).toBe(200);
    expect(itemOf(sol.body).instructions.some((instruction) => instruction.programId === SVM_AGGREGATOR_PROGRAM)).toBe(false);
  });

  it('an under-limit item sent with web3.js runs every hop on the ledger, deposits the MEME and is filled; the bytes sent are the bytes the quote measured', async () => {
    const answer = await quote({ maxRouteLength: 3 });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { instructions } = itemOf(answer.body);
    const requestId = answer.body.steps[0].requestId as string;
    const usdc = memoToUsdc.destinationCurrency as Address;
    const recipient = memoToUsdc.recipient as Address;
    const evm = publicClientFor(sim, EVM);
    const before = await evm.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const memeAccount = async (owner: PublicKey) => (await connection.getParsedTokenAccountsByOwner(owner, { mint: new PublicKey(memoToUsdc.originCurrency as string) })).value[0]!.account.data.parsed.info.tokenAmount.amount as string;
    const userMemeBefore = BigInt(await memeAccount(user.publicKey));

    // what the official SDK's SVM adapter does: a v0 transaction of the item's instructions, the user paying and signing
    const latest = await connection.getLatestBlockhash();
    const transaction = new VersionedTransaction(
      new TransactionMessage({
        payerKey: user.publicKey,
        recentBlockhash: latest.blockhash,
        instructions: instructions.map(
          (instruction) =>
            new TransactionInstruction({
              programId: new PublicKey(instruction.programId),
              keys: instruction.keys.map((key) => ({ pubkey: new PublicKey(key.pubkey), isSigner: key.isSigner, isWritable: key.isWritable })),
              data: Buffer.from(instruction.data, 'hex'),
            }),
        ),
      }).compileToV0Message(),
    );
    transaction.sign([user]);
    const wire = transaction.serialize();
    expect(wire.length).toBe(svmTransactionSize(address(user.publicKey.toBase58()), instructions.map(fromStepInstruction)));
    const signature = await connection.sendRawTransaction(wire);
    await connection.confirmTransaction({ signature, ...latest });
    expect(chainAdapterOf(sim, SVM, SvmChain).ledger.transaction(signature)!.wire.length).toBe(wire.length);

    const mined = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(mined!.meta!.err).toBeNull();
    const logs = mined!.meta!.logMessages!;
    expect(logs.filter((line) => line === `Program ${SVM_AGGREGATOR_PROGRAM} success`)).toHaveLength(3);

    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    expect(status.inTxHashes).toContain(signature);
    expect(BigInt(await memeAccount(user.publicKey))).toBe(userMemeBefore - BigInt(memoToUsdc.amount as string));
    const after = await evm.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    expect(after - before).toBe(BigInt(answer.body.details.currencyOut.amount));
  });
});
