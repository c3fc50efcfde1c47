import { join } from 'node:path';
import type { ChainAdapterContext } from '../chainAdapterContext';
import { deriveSvmAccounts, type SvmAccounts, type SvmRpcEndpoints, runSvmNode, type RunningSvmNode, TOKEN_ACCOUNT_SIZE, startSolanaTestValidator, writeSvmGenesisAccountFiles } from '../../nodes/svm';
import type { ChildProcessInstance } from '../../process/ChildProcessInstance';
import { RpcSvmLedger } from './RpcSvmLedger';
import { InProcessSvmLedger, type SvmLedgerAccess } from './SvmLedgerAccess';
import { svmCurrencies, type SvmCurrencies } from './svmCurrencies';
import type { SvmForkPoint } from './probeSvmForkUpstream';

export interface SvmLedgerStartOptions extends ChainAdapterContext {
  /** `--chain-port`: the JSON-RPC's port (its websocket on the next one); undefined: a free pair. */
  port?: number;
  /** `--svm validator`: spawn this `solana-test-validator` and talk to it over RPC only (docs/chains/solana.md ("The SVM chain")). */
  validator?: { binaryPath: string };
  /** Run the embedded node as a fork of this upstream Solana JSON-RPC (probed before: probeSvmForkUpstream). */
  fork?: SvmForkPoint;
}

/** The ledger an SVM chain runs on, once started, and what reads and writes it. */
export interface StartedSvmLedger {
  access: SvmLedgerAccess;
  endpoints: SvmRpcEndpoints;
  accounts: SvmAccounts;
  currencies: SvmCurrencies;
  /** Lamports a token account needs to be rent-exempt. */
  tokenAccountRent: bigint;
  /** The in-process node and its ledger (absent with `--svm validator`). */
  node?: RunningSvmNode;
}

/**
 * Starts an SVM chain's ledger: LiteSVM in-process behind the project's JSON-RPC (with --db,
 * genesis at its first start's time, then every journaled slot again: SvmLedgerJournal), or with
 * `validator` a supervised `solana-test-validator` (`adoptValidator` gets its process as soon as
 * it runs, so that it is stopped even if a later step fails).
 */
export async function startSvmLedger(
  chainId: number,
  options: SvmLedgerStartOptions,
  adoptValidator: (process: ChildProcessInstance<SvmRpcEndpoints>) => void,
): Promise<StartedSvmLedger> {
  const accounts = await deriveSvmAccounts(options.mnemonic, options.accountCount);
  if (options.validator) return startValidator(chainId, options, accounts, options.validator.binaryPath, adoptValidator);
  const { clock, mnemonic, host, port, ledgerJournal } = options;
  const node = await runSvmNode({ chainId, clock, mnemonic, accounts, host, ...(port === undefined ? {} : { port }), journal: ledgerJournal, ...(options.fork ? { fork: { url: options.fork.url } } : {}) });
  const access = new InProcessSvmLedger(node.ledger);
  const tokenAccountRent = await access.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE));
  return { access, endpoints: node.endpoints, accounts, currencies: svmCurrencies(chainId, accounts.stablecoinMint.address), tokenAccountRent, node };
}

/**
 * `--svm validator`: the same genesis accounts as files, a supervised `solana-test-validator`
 * loading them, and the adapter reading and writing it through its JSON-RPC and websocket only.
 */
async function startValidator(
  chainId: number,
  options: SvmLedgerStartOptions,
  accounts: SvmAccounts,
  binaryPath: string,
  adoptValidator: (process: ChildProcessInstance<SvmRpcEndpoints>) => void,
): Promise<StartedSvmLedger> {
  const directory = join(options.dataDir, `svm-${chainId}`);
  const files = await writeSvmGenesisAccountFiles({ directory: join(directory, 'genesis-accounts'), accounts, clock: options.clock, seed: `${options.mnemonic}:${chainId}` });
  const logFile = join(options.dataDir, 'logs', `solana-test-validator-${chainId}.log`);
  const { endpoints, process } = await startSolanaTestValidator({
    chainId,
    binaryPath,
    ledgerDir: join(directory, 'validator-ledger'),
    logFile,
    host: options.host,
    ...(options.port === undefined ? {} : { rpcPort: options.port }),
    reset: !options.persistState,
    accounts: files,
  });
  adoptValidator(process);
  process.onUnexpectedExit((exit) =>
    options.onFatalError(new Error(`solana-test-validator for chain ${chainId} exited unexpectedly (code ${exit.exitCode ?? exit.signal}); see ${logFile}`)),
  );
  // a failed poll is tried again at the next one; a validator that died is reported above
  const access = new RpcSvmLedger({ ...endpoints, pollIntervalMs: options.pollIntervalMs, onError: () => undefined });
  await access.start();
  const tokenAccountRent = await access.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE));
  return { access, endpoints, accounts, currencies: svmCurrencies(chainId, accounts.stablecoinMint.address), tokenAccountRent };
}

