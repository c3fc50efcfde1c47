import { getTransferSolInstruction } from '@solana-program/system';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import type { ChainObservation } from '../../../src/chains/ChainAdapter';
import { deriveSvmAccounts } from '../../../src/nodes/svm/svmAccounts';
import { SvmDepositWatcher } from '../../../src/chains/svm/SvmDepositWatcher';
import { memoInstruction } from '../../../src/chains/svm/svmInstructions';
import { openSvmLedger } from '../../../src/nodes/svm/SvmLedgerJournal';
import { writeSvmGenesis } from '../../../src/nodes/svm/writeSvmGenesis';
import { ChainIndexStore } from '../../../src/store/ChainIndexStore';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';
import { InProcessSvmLedger } from '../../../src/chains/svm/SvmLedgerAccess';

const MNEMONIC = 'test test test test test test test test test test test junk';
const CHAIN_ID = 792703809;
const REQUEST_ID = `0x${'ab'.repeat(32)}`;

const databases: Array<ReturnType<typeof openDatabase>> = [];
afterEach(() => databases.splice(0).forEach((db) => db.close()));

describe('SvmDepositWatcher after a restart', () => {
  it('indexes a deposit the ledger journaled but a killed process never indexed, once, and reports it', async () => {
    const accounts = await deriveSvmAccounts(MNEMONIC, 1);
    const db = openDatabase(':memory:');
    databases.push(db);
    const journal = new LedgerJournalStore(db);
    const chainIndex = new ChainIndexStore(db);
    const clock = new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) });
    const open = () => openSvmLedger({ chainId: CHAIN_ID, journal, ledger: { clock, seed: `${MNEMONIC}:${CHAIN_ID}`, faucet: accounts.faucet.signer }, writeGenesis: (ledger) => writeSvmGenesis(ledger, accounts) });

    // the process mines the deposit and dies before its watcher indexes it (none listens here)
    const { ledger } = await open();
    const user = accounts.testAccounts[0]!.signer;
    const deposit = ledger.submit(
      await ledger.signWire(user, [getTransferSolInstruction({ source: user, destination: accounts.depository.address, amount: 2_000_000_000n }), memoInstruction(REQUEST_ID)]),
      { preflight: true },
    );
    expect(chainIndex.depositsForRequest(REQUEST_ID)).toEqual([]);

    const { ledger: restarted } = await open();
    const seen: ChainObservation[] = [];
    const watcher = new SvmDepositWatcher({ chainId: CHAIN_ID, ledger: new InProcessSvmLedger(restarted), depository: accounts.depository.address, chainIndex, emit: (observation) => seen.push(observation) });
    await watcher.catchUp();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'deposit', deposit: { txHash: deposit.signature, requestId: REQUEST_ID, amount: 2_000_000_000n, blockNumber: Number(deposit.slot) } });
    expect(chainIndex.depositsForRequest(REQUEST_ID)).toHaveLength(1);
    // a deposit already indexed is not reported again (the next start's catch-up)
    await watcher.catchUp();
    expect(seen).toHaveLength(1);
    watcher.stop();
  });
});
