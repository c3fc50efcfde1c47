import { solanaConnection } from '../../support/solanaConnections';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection, Keypair, PublicKey, type ParsedAccountData } from '@solana/web3.js';
import { createSolanaRpc } from '@solana/kit';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { openDatabase } from '../../../src/store/openDatabase';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { deriveSvmAccounts } from '../../../src/nodes/svm/svmAccounts';
import { runSvmNode, type RunningSvmNode } from '../../../src/nodes/svm/SvmNode';

// Surfpool's cheats (surfnet_*) on the SVM node's own JSON-RPC, journaled like any ledger change:
// a node started again on the same journal (real SQLite) gives them back
const MNEMONIC = 'test test test test test test test test test test test junk';
const CHAIN_ID = 792703809;
const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ATA_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

const running: RunningSvmNode[] = [];
const databases: Array<ReturnType<typeof openDatabase>> = [];
afterEach(async () => {
  for (const node of running.splice(0)) await node.stop();
  databases.splice(0).forEach((db) => db.close());
});

async function start(journal: LedgerJournalStore, clock: VirtualClock): Promise<RunningSvmNode> {
  const node = await runSvmNode({ chainId: CHAIN_ID, clock, mnemonic: MNEMONIC, accounts: await deriveSvmAccounts(MNEMONIC, 1), host: '127.0.0.1', journal });
  running.push(node);
  return node;
}

async function call(node: RunningSvmNode, method: string, params: unknown[]) {
  const response = await fetch(node.endpoints.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  expect(response.status).toBe(200);
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe('surfnet_* cheats on the SVM node', () => {
  it('setAccount, setTokenAccount and timeTravel change what clients read, and survive a restart on the same journal', async () => {
    const db = openDatabase(':memory:');
    databases.push(db);
    const journal = new LedgerJournalStore(db);
    const clock = new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) });
    const first = await start(journal, clock);
    const mint = new PublicKey((await deriveSvmAccounts(MNEMONIC, 1)).stablecoinMint.address);
    const someone = Keypair.generate().publicKey;
    const holder = Keypair.generate().publicKey;
    const ata = PublicKey.findProgramAddressSync([holder.toBuffer(), TOKEN_PROGRAM.toBuffer(), mint.toBuffer()], ATA_PROGRAM)[0];

    expect((await call(first, 'surfnet_setAccount', [someone.toBase58(), { lamports: 4_200_000_000, data: 'deadbeef', owner: TOKEN_PROGRAM.toBase58() }])).result).toMatchObject({ value: null });
    expect((await call(first, 'surfnet_setTokenAccount', [holder.toBase58(), mint.toBase58(), { amount: 777_000_000, state: 'frozen' }])).result).toMatchObject({ value: null });
    const travelledTo = Date.UTC(2027, 5, 1);
    const epochInfo = (await call(first, 'surfnet_timeTravel', [{ absoluteTimestamp: travelledTo }])).result;
    expect(epochInfo).toMatchObject({ epoch: 0, absoluteSlot: 1 });
    expect((await call(first, 'surfnet_timeTravel', [{ absoluteSlot: 50 }])).result).toMatchObject({ absoluteSlot: 50 });
    // time only moves forward, and a jump must fit what the node mines at once
    expect((await call(first, 'surfnet_timeTravel', [{ absoluteTimestamp: Date.UTC(2026, 0, 1) }])).error).toMatchObject({ code: -32602 });
    expect((await call(first, 'surfnet_timeTravel', [{ absoluteEpoch: 5 }])).error?.message).toMatch(/more than this node mines at once/);
    expect((await call(first, 'surfnet_setTokenAccount', [holder.toBase58(), someone.toBase58(), { amount: 1 }])).error).toMatchObject({ code: -32602 });

    const read = async (node: RunningSvmNode) => {
      const connection = solanaConnection(node.endpoints.rpcUrl);
      const kit = createSolanaRpc(node.endpoints.rpcUrl);
      const raw = await connection.getAccountInfo(someone);
      const token = await connection.getParsedAccountInfo(ata);
      return {
        lamports: raw?.lamports,
        owner: raw?.owner.toBase58(),
        data: raw?.data.toString('hex'),
        token: (token.value?.data as ParsedAccountData).parsed.info,
        slot: await connection.getSlot(),
        time: await kit.getBlockTime(1n).send(),
        lastTime: await connection.getBlockTime(50),
      };
    };
    const before = await read(first);
    expect(before).toMatchObject({ lamports: 4_200_000_000, owner: TOKEN_PROGRAM.toBase58(), data: 'deadbeef', slot: 50, time: BigInt(travelledTo / 1000) });
    expect(before.lastTime).toBe(travelledTo / 1000 + Math.floor((49 * 400) / 1000));
    expect(before.token).toMatchObject({ owner: holder.toBase58(), mint: mint.toBase58(), state: 'frozen', tokenAmount: { amount: '777000000', uiAmount: 777 } });

    await first.stop();
    running.splice(0);
    const again = await start(journal, clock);
    expect(await read(again)).toEqual(before);
  });

  it('tells account subscribers of a cheat, as of any change', async () => {
    const db = openDatabase(':memory:');
    databases.push(db);
    const node = await start(new LedgerJournalStore(db), new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) }));
    const connection = solanaConnection(node.endpoints.rpcUrl);
    const watched = Keypair.generate().publicKey;
    const heard: number[] = [];
    const id = connection.onAccountChange(watched, (account) => heard.push(account.lamports));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await call(node, 'surfnet_setAccount', [watched.toBase58(), { lamports: 123 }]);
    await expect.poll(() => heard).toEqual([123]);
    await connection.removeAccountChangeListener(id);
  });
});
