import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address, createSolanaRpc, createSolanaRpcSubscriptions, generateKeyPairSigner, getAddressEncoder, type Base64EncodedWireTransaction, type Instruction } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getInitializeMint2Instruction, getMintToCheckedInstruction } from '@solana-program/token';
import { startSvmNode, type StartedSvmNode } from '../../../src/nodes/svm/startSvmNode';
import { signSvmWire } from '../../../src/nodes/svm/signSvmWire';
import type { SvmSigner } from '../../../src/nodes/svm/svmKeySigner';

// Solana RPC parity, proven with @solana/kit (createSolanaRpc / createSolanaRpcSubscriptions), unshimmed,
// against the SVM node alone (startSvmNode)
const TOKEN_2022 = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');

let node: StartedSvmNode;
let rpc: ReturnType<typeof createSolanaRpc>;
let subscriptions: ReturnType<typeof createSolanaRpcSubscriptions>;
let payer: SvmSigner;

/** Signs `instructions` (v0, the payer the only signer) on the blockhash kit fetched, and sends them with kit. */
async function send(instructions: Instruction[]): Promise<string> {
  const { value: latest } = await rpc.getLatestBlockhash().send();
  const wire = await signSvmWire(payer, instructions, latest);
  return rpc.sendTransaction(Buffer.from(wire).toString('base64') as Base64EncodedWireTransaction, { encoding: 'base64' }).send();
}

/** Collects what a kit subscription hears until `abort` fires. */
function collect<T>(notifications: AsyncIterable<T>): T[] {
  const heard: T[] = [];
  void (async () => {
    try {
      for await (const item of notifications) heard.push(item);
    } catch {
      // aborted
    }
  })();
  return heard;
}

beforeAll(async () => {
  node = await startSvmNode({ accountCount: 2 });
  rpc = createSolanaRpc(node.rpcUrl);
  subscriptions = createSolanaRpcSubscriptions(node.wsUrl);
  payer = node.keys.testAccounts[0]!.signer;
});

afterAll(async () => {
  await node?.stop();
});

describe('Solana RPC parity with @solana/kit', () => {
  it('a Token-2022 mint made by real transactions: jsonParsed System, Token-2022 and ATA instructions, the mint parsed, its supply, and logsNotifications / programNotifications hearing it', async () => {
    const mint = await generateKeyPairSigner();
    const abort = new AbortController();
    const logs = collect(await subscriptions.logsNotifications({ mentions: [mint.address] }, { commitment: 'confirmed' }).subscribe({ abortSignal: abort.signal }));
    const program = collect(await subscriptions.programNotifications(TOKEN_2022, { encoding: 'base64', filters: [{ dataSize: 82n }] }).subscribe({ abortSignal: abort.signal }));
    const [ata] = await findAssociatedTokenPda({ owner: payer.address, mint: mint.address, tokenProgram: TOKEN_2022 });
    const rent = await rpc.getMinimumBalanceForRentExemption(82n).send();
    const signature = await send([
      getCreateAccountInstruction({ payer, newAccount: mint, lamports: rent, space: 82, programAddress: TOKEN_2022 }),
      getInitializeMint2Instruction({ mint: mint.address, decimals: 2, mintAuthority: payer.address }, { programAddress: TOKEN_2022 }),
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata, owner: payer.address, mint: mint.address, tokenProgram: TOKEN_2022 }),
      getMintToCheckedInstruction({ mint: mint.address, token: ata, mintAuthority: payer, amount: 12_345n, decimals: 2 }, { programAddress: TOKEN_2022 }),
    ]);

    const mined = await rpc.getTransaction(signature as Parameters<typeof rpc.getTransaction>[0], { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send();
    expect(mined?.meta?.err).toBeNull();
    const [create, initialize, createAta, mintTo] = mined!.transaction.message.instructions;
    expect(create).toEqual({ program: 'system', programId: '11111111111111111111111111111111', stackHeight: null, parsed: { type: 'createAccount', info: { source: payer.address, newAccount: mint.address, lamports: rent, space: 82n, owner: TOKEN_2022 } } });
    expect(initialize).toMatchObject({ program: 'spl-token-2022', programId: TOKEN_2022, parsed: { type: 'initializeMint2', info: { mint: mint.address, decimals: 2n, mintAuthority: payer.address } } });
    expect(createAta).toMatchObject({ program: 'spl-associated-token-account', parsed: { type: 'createIdempotent', info: { account: ata, wallet: payer.address, tokenProgram: TOKEN_2022 } } });
    expect(mintTo).toMatchObject({ program: 'spl-token-2022', parsed: { type: 'mintToChecked', info: { mint: mint.address, account: ata, mintAuthority: payer.address, tokenAmount: { amount: '12345', uiAmountString: '123.45' } } } });
    expect(mined!.transaction.message.accountKeys.slice(0, 2)).toEqual([
      { pubkey: payer.address, signer: true, writable: true, source: 'transaction' },
      { pubkey: mint.address, signer: true, writable: true, source: 'transaction' },
    ]);

    const supply = await rpc.getTokenSupply(mint.address).send();
    expect(supply.value).toEqual({ amount: '12345', decimals: 2, uiAmount: 123.45, uiAmountString: '123.45' });
    const largest = await rpc.getTokenLargestAccounts(mint.address).send();
    expect(largest.value).toEqual([{ address: ata, amount: '12345', decimals: 2, uiAmount: 123.45, uiAmountString: '123.45' }]);
    const parsedMint = await rpc.getAccountInfo(mint.address, { encoding: 'jsonParsed' }).send();
    expect(parsedMint.value?.data).toMatchObject({ program: 'spl-token-2022', parsed: { type: 'mint', info: { decimals: 2, supply: '12345', mintAuthority: payer.address, freezeAuthority: null } } });
    const parsedAta = await rpc.getAccountInfo(ata, { encoding: 'jsonParsed' }).send();
    expect(parsedAta.value?.data).toMatchObject({ program: 'spl-token-2022', parsed: { type: 'account', info: { owner: payer.address, tokenAmount: { amount: '12345' } } } });

    await expect.poll(() => logs.map((item) => item.value.signature)).toEqual([signature]);
    await expect.poll(() => program.map((item) => item.value.pubkey)).toEqual([mint.address]);
    abort.abort();
  });

  it('getProgramAccounts with a base64 memcmp filter, dataSlice and withContext; getBlocksWithLimit', async () => {
    const owner = Buffer.from(getAddressEncoder().encode(payer.address)).toString('base64');
    const found = await rpc
      .getProgramAccounts(address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), {
        encoding: 'base64',
        withContext: true,
        dataSlice: { offset: 32, length: 32 },
        filters: [{ dataSize: 165n }, { memcmp: { offset: 32n, bytes: owner as never, encoding: 'base64' } }],
      })
      .send();
    expect(found.context.slot).toBe(await rpc.getSlot().send());
    expect(found.value.length).toBeGreaterThanOrEqual(2);
    expect(found.value.every((entry) => entry.account.data[0] === owner)).toBe(true);
    const slot = await rpc.getSlot().send();
    expect(await rpc.getBlocksWithLimit(0n, 2).send()).toEqual([0n, 1n]);
    expect(await rpc.getBlocks(0n, slot).send()).toHaveLength(Number(slot) + 1);
    expect(await rpc.getFirstAvailableBlock().send()).toBe(0n);
    expect((await rpc.getInflationGovernor().send()).initial).toBe(0.08);
  });
});
