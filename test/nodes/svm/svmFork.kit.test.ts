import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  address,
  compressTransactionMessageUsingAddressLookupTables,
  createSolanaRpc,
  devnet,
  generateKeyPairSigner,
  getAddressDecoder,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  lamports,
  signTransactionMessageWithSigners,
  type Address,
  type Base64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getInitializeMint2Instruction, getMintToCheckedInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { startSvmNode, type StartedSvmNode } from '../../../src/nodes/svm/startSvmNode';
import { signSvmWire, svmTransactionMessage } from '../../../src/nodes/svm/signSvmWire';
import type { SvmSigner } from '../../../src/nodes/svm/svmKeySigner';

// A fork of an upstream Solana RPC (the upstream: a second embedded node with state the fork's own
// genesis does not make), read with @solana/kit's RPC client: the read-through of accounts, token
// accounts and programs, transactions signed by a forked-in key, and an upstream left unchanged.
const SOL = 1_000_000_000n;
const MEMO_V2 = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const LOOKUP_TABLE_PROGRAM = address('AddressLookupTab1e1111111111111111111111111');

/** An address lookup table's account data: active, last extended at `lastExtendedSlot`, no authority, naming `addresses`. */
function lookupTableData(lastExtendedSlot: bigint, addresses: readonly Address[]): Uint8Array {
  const data = new Uint8Array(56 + 32 * addresses.length);
  const view = new DataView(data.buffer);
  view.setUint32(0, 1, true); // ProgramState::LookupTable
  view.setBigUint64(4, 2n ** 64n - 1n, true); // not deactivated
  view.setBigUint64(12, lastExtendedSlot, true);
  addresses.forEach((named, index) => data.set(getAddressEncoder().encode(named), 56 + 32 * index));
  return data;
}

let upstream: StartedSvmNode;
let fork: StartedSvmNode;
/** A local cluster's RPC: devnet's methods (requestAirdrop among them). */
type LocalRpc = ReturnType<typeof localRpc>;
const localRpc = (url: string) => createSolanaRpc(devnet(url));
let upstreamRpc: LocalRpc;
let rpc: LocalRpc;
/** Funded only upstream (an airdrop there), holding a token only upstream has. */
let holder: KeyPairSigner;
let mint: KeyPairSigner;
let holderTokens: Address;
/** A program deployed only upstream (a copy of SPL Memo under the upgradeable loader). */
let upstreamProgram: Address;

async function send(to: LocalRpc, payer: SvmSigner, instructions: Instruction[]): Promise<string> {
  const { value: latest } = await to.getLatestBlockhash().send();
  const wire = await signSvmWire(payer, instructions, latest);
  return to.sendTransaction(Buffer.from(wire).toString('base64') as Base64EncodedWireTransaction, { encoding: 'base64' }).send();
}

/** What the upstream shows a client: the holder's SOL and tokens, its slot and transaction count. */
async function upstreamState() {
  return {
    balance: (await upstreamRpc.getBalance(holder.address).send()).value,
    tokens: (await upstreamRpc.getTokenAccountBalance(holderTokens).send()).value.amount,
    slot: await upstreamRpc.getSlot().send(),
    transactions: await upstreamRpc.getTransactionCount().send(),
  };
}

beforeAll(async () => {
  upstream = await startSvmNode({ accountCount: 1 });
  upstreamRpc = localRpc(upstream.rpcUrl);
  holder = await generateKeyPairSigner();
  mint = await generateKeyPairSigner();
  await upstreamRpc.requestAirdrop(holder.address, lamports(2n * SOL)).send();
  const issuer = upstream.keys.testAccounts[0]!.signer;
  [holderTokens] = await findAssociatedTokenPda({ owner: holder.address, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  await send(upstreamRpc, issuer, [
    getCreateAccountInstruction({ payer: issuer, newAccount: mint, lamports: await upstreamRpc.getMinimumBalanceForRentExemption(82n).send(), space: 82, programAddress: TOKEN_PROGRAM_ADDRESS }),
    getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: issuer.address }),
    getCreateAssociatedTokenIdempotentInstruction({ payer: issuer, ata: holderTokens, owner: holder.address, mint: mint.address }),
    getMintToCheckedInstruction({ mint: mint.address, token: holderTokens, mintAuthority: issuer, amount: 5_000_000n, decimals: 6 }),
  ]);
  upstreamProgram = (await generateKeyPairSigner()).address;
  const memo = upstream.ledger.account(MEMO_V2);
  if (!memo.exists) throw new Error('LiteSVM has no SPL Memo');
  upstream.ledger.svm.addProgram(upstreamProgram, memo.data);
  // deployed, as far as its programdata says, at an upstream slot far ahead of the fork's
  const programAccount = upstream.ledger.account(upstreamProgram);
  const programdata = programAccount.exists ? upstream.ledger.account(getAddressDecoder().decode(programAccount.data.subarray(4, 36))) : undefined;
  if (!programdata?.exists) throw new Error('addProgram made no programdata');
  const deployed = new Uint8Array(programdata.data);
  new DataView(deployed.buffer).setBigUint64(4, 5_000_000n, true);
  upstream.ledger.svm.setAccount({ ...programdata, data: deployed });

  fork = await startSvmNode({ accountCount: 1, fork: { url: upstream.rpcUrl } });
  rpc = localRpc(fork.rpcUrl);
});

afterAll(async () => {
  await fork?.stop();
  await upstream?.stop();
});

describe('an embedded Solana node forking an upstream Solana RPC', () => {
  it('shows an account, a token account and its balance that exist only upstream', async () => {
    expect((await rpc.getBalance(holder.address).send()).value).toBe(2n * SOL);
    const tokens = await rpc.getTokenAccountBalance(holderTokens).send();
    expect(tokens.value).toEqual({ amount: '5000000', decimals: 6, uiAmount: 5, uiAmountString: '5' });
    const parsed = await rpc.getAccountInfo(holderTokens, { encoding: 'jsonParsed' }).send();
    expect(parsed.value?.data).toMatchObject({ program: 'spl-token', parsed: { type: 'account', info: { owner: holder.address, mint: mint.address, tokenAmount: { amount: '5000000' } } } });
    const held = await rpc.getTokenAccountsByOwner(holder.address, { mint: mint.address }, { encoding: 'base64' }).send();
    expect(held.value.map((entry) => entry.pubkey)).toEqual([holderTokens]);
    // an address the upstream has nothing at is nothing here too
    expect((await rpc.getAccountInfo((await generateKeyPairSigner()).address).send()).value).toBeNull();
  });

  it('runs SOL and token transfers signed by the forked-in key and a program deployed only upstream, and leaves the upstream unchanged', async () => {
    const before = await upstreamState();
    const recipient = (await generateKeyPairSigner()).address;
    const [recipientTokens] = await findAssociatedTokenPda({ owner: recipient, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const signature = await send(rpc, holder, [
      getTransferSolInstruction({ source: holder, destination: recipient, amount: SOL }),
      getCreateAssociatedTokenIdempotentInstruction({ payer: holder, ata: recipientTokens, owner: recipient, mint: mint.address }),
      getTransferCheckedInstruction({ source: holderTokens, mint: mint.address, destination: recipientTokens, authority: holder, amount: 1_250_000n, decimals: 6 }),
    ]);
    const mined = await rpc.getTransaction(signature as Parameters<typeof rpc.getTransaction>[0], { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(mined?.meta?.err).toBeNull();
    expect((await rpc.getBalance(recipient).send()).value).toBe(SOL);
    expect((await rpc.getTokenAccountBalance(recipientTokens).send()).value.amount).toBe('1250000');
    expect((await rpc.getTokenAccountBalance(holderTokens).send()).value.amount).toBe('3750000');

    const memo = await send(rpc, holder, [{ programAddress: upstreamProgram, data: new TextEncoder().encode('paid from a fork') }]);
    const memoMined = await rpc.getTransaction(memo as Parameters<typeof rpc.getTransaction>[0], { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(memoMined?.meta?.err).toBeNull();
    expect(memoMined?.meta?.logMessages?.join('\n')).toContain(`Program ${upstreamProgram} success`);
    // the program came with its programdata
    const program = await rpc.getAccountInfo(upstreamProgram, { encoding: 'base64' }).send();
    expect(program.value?.executable).toBe(true);
    const programdata = getAddressDecoder().decode(Buffer.from(program.value!.data[0], 'base64').subarray(4, 36));
    const localProgramdata = (await rpc.getAccountInfo(programdata, { encoding: 'base64' }).send()).value;
    expect(localProgramdata?.owner).toBe('BPFLoaderUpgradeab1e11111111111111111111111');
    // its deployment slot is the fork's slot 0, not the upstream's
    expect(Buffer.from(localProgramdata!.data[0], 'base64').readBigUInt64LE(4)).toBe(0n);

    expect(await upstreamState()).toEqual(before);
    expect(await upstreamRpc.getAccountInfo(recipient).send()).toMatchObject({ value: null });
  });

  it('a v0 transaction through a lookup table only the upstream has: the table and the accounts it names are read first, and the table is usable from slot 0', async () => {
    // the table was last extended at an upstream slot far ahead of the fork's
    const table = (await generateKeyPairSigner()).address;
    const named = (await generateKeyPairSigner()).address;
    await upstreamRpc.requestAirdrop(named, lamports(SOL)).send();
    const data = lookupTableData(5_000_000n, [named]);
    upstream.ledger.svm.setAccount({ address: table, lamports: lamports(await upstreamRpc.getMinimumBalanceForRentExemption(BigInt(data.length)).send()), programAddress: LOOKUP_TABLE_PROGRAM, executable: false, data, space: BigInt(data.length) });

    const { value: latest } = await rpc.getLatestBlockhash().send();
    const message = compressTransactionMessageUsingAddressLookupTables(svmTransactionMessage(holder, [getTransferSolInstruction({ source: holder, destination: named, amount: 1_000n })], latest), { [table]: [named] });
    const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
    const signature = await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    const mined = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    expect(mined?.meta?.err).toBeNull();
    expect(mined?.meta?.loadedAddresses).toEqual({ writable: [named], readonly: [] });
    expect((await rpc.getBalance(named).send()).value).toBe(SOL + 1_000n);
    const localTable = await rpc.getAccountInfo(table, { encoding: 'base64' }).send();
    expect(Buffer.from(localTable.value!.data[0], 'base64').readBigUInt64LE(12)).toBe(0n);
  });

  it('never reads an account the fork has written again: the upstream changing it later is not seen', async () => {
    const local = (await rpc.getBalance(holder.address).send()).value;
    await upstreamRpc.requestAirdrop(holder.address, lamports(7n * SOL)).send();
    expect((await upstreamRpc.getBalance(holder.address).send()).value).toBe(9n * SOL);
    expect((await rpc.getBalance(holder.address).send()).value).toBe(local);
  });
});
