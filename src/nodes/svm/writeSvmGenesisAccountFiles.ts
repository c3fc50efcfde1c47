import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { Address } from '@solana/kit';
import { SvmLedger } from './SvmLedger';
import type { SvmAccounts } from './svmAccounts';
import { NATIVE_MINT } from './svmProgramIds';
import { writeSvmGenesis } from './writeSvmGenesis';
import { writeSvmAggregatorGenesis } from './writeSvmAggregatorGenesis';

/** One `--account <address> <file>` pair of `solana-test-validator`. */
export interface SvmGenesisAccountFile {
  address: string;
  file: string;
}

/**
 * The embedded chain's genesis accounts (mint, funded accounts, their token accounts, the
 * wrapped-SOL mint, the aggregator's programs, tokens and pools) as the JSON files `solana-test-validator --account` loads, in the shape
 * `solana account --output json` writes: written into a scratch LiteSVM ledger by the same
 * `writeSvmGenesis`, then read back, so both runtimes start from the same state.
 */
export async function writeSvmGenesisAccountFiles(params: { directory: string; accounts: SvmAccounts; clock: VirtualClock; seed: string }): Promise<SvmGenesisAccountFile[]> {
  const scratch = new SvmLedger({ clock: params.clock, seed: params.seed, faucet: params.accounts.faucet.signer });
  // every account the genesis writers set, heard through the ledger's recorder
  const written = new Set<Address>();
  scratch.setRecorder({ transactionSlot: () => undefined, emptySlots: () => undefined, accountWritten: (account) => written.add(account.address), upstreamAccounts: () => undefined });
  await writeSvmGenesis(scratch, params.accounts);
  await writeSvmAggregatorGenesis(scratch, params.accounts);
  const addresses = [...written.add(NATIVE_MINT)];
  mkdirSync(params.directory, { recursive: true });
  return addresses.map((address) => {
    const account = scratch.account(address);
    if (!account.exists) throw new Error(`genesis account ${address} was not written`);
    const file = join(params.directory, `${address}.json`);
    const json = {
      pubkey: address,
      account: {
        lamports: Number(account.lamports),
        data: [Buffer.from(account.data).toString('base64'), 'base64'],
        owner: account.programAddress,
        executable: account.executable,
        rentEpoch: 0,
        space: account.data.length,
      },
    };
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    return { address, file };
  });
}
