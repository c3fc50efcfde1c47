import { getCompiledTransactionMessageDecoder, type Address } from '@solana/kit';
import { addressParam, configParam, u64Param, type SvmRpcMethod } from './svmRpcParams';
import { getTransferSolInstruction } from '@solana-program/system';
import { SvmTransactionDroppedError, SvmTransactionRejectedError, type SvmLedger } from './SvmLedger';
import { decodeWire, encodeAccount, encodeTransaction, SvmRpcError, type AccountEncoding } from './svmRpcEncoding';
import { listedAccount, readMintDecimals, readTokenAccount, uiTokenAmount } from './svmTokenBalances';
import { svmTransactionFee } from './svmTransactionFee';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './svmProgramIds';
import type { SvmCompiledMessage } from './decodeSvmTransaction';
import { svmClusterMethods } from './svmClusterMethods';
import { dataSliceParam, svmProgramAccountMethods } from './svmProgramAccountMethods';
import { svmSurfnetCheats } from './svmSurfnetCheats';

/** The largest airdrop the faucet pays, as `solana-test-validator`'s faucet limits it. */
const MAX_AIRDROP_LAMPORTS = 1_000_000n * 1_000_000_000n;

function rejection(error: unknown): never {
  if (error instanceof SvmTransactionRejectedError) {
    const data = error.simulation ? { err: error.simulation.err, logs: error.simulation.logs, unitsConsumed: error.simulation.unitsConsumed, accounts: null, returnData: null } : undefined;
    throw new SvmRpcError(error.code, error.message, data);
  }
  throw error;
}

/**
 * The Solana JSON-RPC methods the simulator answers, over one ledger: what `@solana/web3.js`
 * `Connection`, `@solana/kit` and the official SDK's SVM wallet adapter call. Every commitment
 * level reads the same state (a slot is final once mined).
 */
export function svmRpcMethods(ledger: SvmLedger, endpoints: () => { rpcUrl: string | undefined } = () => ({ rpcUrl: undefined })): Record<string, SvmRpcMethod> {
  const cluster = svmClusterMethods(ledger, endpoints);
  const context = () => ({ slot: ledger.currentSlot(), apiVersion: '2.2.0' });
  const withContext = (value: unknown) => ({ context: context(), value });
  const accountOf = (key: Address, config: Record<string, unknown>) => encodeAccount(ledger.account(key), (config.encoding as AccountEncoding) ?? 'base64', (mint) => ledger.account(mint), dataSliceParam(config.dataSlice));

  return {
    ...cluster,
    ...svmProgramAccountMethods(ledger),
    ...svmSurfnetCheats(ledger, () => cluster.getEpochInfo!([])),
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
    getGenesisHash: () => ledger.block(0n)!.blockhash,
    getSlot: () => ledger.currentSlot(),
    getBlockHeight: () => ledger.currentSlot(),
    getLatestBlockhash: () => {
      const latest = ledger.latestBlockhash();
      return withContext({ blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight });
    },
    isBlockhashValid: ([blockhash]) => withContext(typeof blockhash === 'string' && ledger.isBlockhashValid(blockhash)),
    getBlockTime: ([slot]) => ledger.block(u64Param(slot, 'slot'))?.blockTime ?? null,
    // the block's signatures only (`transactionDetails: "signatures"`): what an explorer lists
    getBlock: ([slot]) => {
      const block = ledger.block(u64Param(slot, 'slot'));
      if (!block) throw new SvmRpcError(-32009, `Slot ${String(slot)} was skipped, or missing in long-term storage`);
      return { blockhash: block.blockhash, previousBlockhash: block.previousBlockhash, parentSlot: block.parentSlot, blockTime: block.blockTime, blockHeight: block.slot, signatures: block.signatures };
    },
    getSignaturesForAddress: ([key, config]) => {
      const limit = configParam(config).limit === undefined ? 1000 : Number(u64Param(configParam(config).limit, 'limit'));
      if (limit < 1 || limit > 1000) throw new SvmRpcError(-32602, 'Invalid param: limit must be between 1 and 1000');
      return ledger.transactionsOf(addressParam(key), limit).map((record) => ({
        signature: record.signature,
        slot: record.slot,
        err: record.err,
        memo: null,
        blockTime: record.blockTime,
        confirmationStatus: 'finalized',
      }));
    },
    getBalance: ([key]) => withContext(ledger.balance(addressParam(key))),
    getAccountInfo: ([key, config]) => withContext(accountOf(addressParam(key), configParam(config))),
    getMultipleAccounts: ([keys, config]) => {
      if (!Array.isArray(keys)) throw new SvmRpcError(-32602, 'Invalid params: expected an array of addresses');
      if (keys.length > 100) throw new SvmRpcError(-32602, 'Too many inputs provided; max 100');
      return withContext(keys.map((key) => accountOf(addressParam(key), configParam(config))));
    },
    getMinimumBalanceForRentExemption: ([size]) => ledger.svm.minimumBalanceForRentExemption(u64Param(size ?? 0, 'dataLength')),
    getTokenAccountBalance: ([key]) => {
      const token = readTokenAccount(ledger.account(addressParam(key)));
      if (!token) throw new SvmRpcError(-32602, 'Invalid param: not a Token account');
      return withContext(uiTokenAmount(token.amount, readMintDecimals(ledger.account(token.mint)) ?? 0));
    },
    getTokenAccountsByOwner: ([owner, filter, config]) => {
      const ownerAddress = addressParam(owner, 'owner');
      const by = configParam(filter);
      const mint = by.mint === undefined ? undefined : addressParam(by.mint, 'mint');
      const programs = by.programId === undefined ? (mint ? [TOKEN_PROGRAM, TOKEN_2022_PROGRAM] : undefined) : [addressParam(by.programId, 'programId')];
      if (!programs) throw new SvmRpcError(-32602, 'Invalid params: expected { mint } or { programId }');
      const accounts = programs.flatMap((program) => ledger.svm.getProgramAccounts(program));
      const owned = accounts.filter((account) => {
        const token = readTokenAccount(listedAccount(account));
        return token && token.owner === ownerAddress && (!mint || token.mint === mint);
      });
      owned.sort((a, b) => (a.address < b.address ? -1 : 1));
      return withContext(owned.map((account) => ({ pubkey: account.address, account: accountOf(account.address, configParam(config)) })));
    },
    getSignatureStatuses: ([signatures]) => {
      if (!Array.isArray(signatures)) throw new SvmRpcError(-32602, 'Invalid params: expected an array of signatures');
      if (signatures.length > 256) throw new SvmRpcError(-32602, 'Too many inputs provided; max 256');
      return withContext(
        signatures.map((signature) => {
          const record = typeof signature === 'string' ? ledger.transaction(signature) : undefined;
          if (!record) return null;
          return { slot: record.slot, confirmations: null, err: record.err, status: record.err === null ? { Ok: null } : { Err: record.err }, confirmationStatus: 'finalized' };
        }),
      );
    },
    getTransaction: ([signature, config]) => {
      const options = typeof config === 'string' ? { encoding: config } : configParam(config);
      const record = typeof signature === 'string' ? ledger.transaction(signature) : undefined;
      if (!record) return null;
      const maxVersion = typeof options.maxSupportedTransactionVersion === 'number' ? options.maxSupportedTransactionVersion : undefined;
      return encodeTransaction(record, String(options.encoding ?? 'json'), maxVersion);
    },
    sendTransaction: ([encoded, config]) => {
      const options = configParam(config);
      const wire = decodeWire(encoded, options.encoding);
      try {
        return ledger.submit(wire, { preflight: options.skipPreflight !== true }).signature;
      } catch (error) {
        // the fault "drop transactions": answered as sent, as a congested leader's RPC does, and never mined
        if (error instanceof SvmTransactionDroppedError) return error.signature;
        return rejection(error);
      }
    },
    simulateTransaction: ([encoded, config]) => {
      const options = configParam(config);
      const wire = decodeWire(encoded, options.encoding);
      try {
        const result = ledger.simulate(wire, { sigVerify: options.sigVerify === true, replaceRecentBlockhash: options.replaceRecentBlockhash === true });
        return withContext({
          err: result.err,
          logs: result.logs,
          accounts: null,
          unitsConsumed: result.unitsConsumed,
          returnData: null,
          ...(result.replacementBlockhash ? { replacementBlockhash: { blockhash: result.replacementBlockhash, lastValidBlockHeight: ledger.latestBlockhash().lastValidBlockHeight } } : {}),
        });
      } catch (error) {
        return rejection(error);
      }
    },
    getFeeForMessage: ([encoded]) => {
      if (typeof encoded !== 'string') throw new SvmRpcError(-32602, 'Invalid params: the message must be base64');
      let message: SvmCompiledMessage;
      try {
        message = getCompiledTransactionMessageDecoder().decode(Buffer.from(encoded, 'base64')) as SvmCompiledMessage;
      } catch {
        throw new SvmRpcError(-32602, 'Invalid params: the message could not be decoded');
      }
      return withContext(ledger.isBlockhashValid(message.lifetimeToken) ? svmTransactionFee(message) : null);
    },
    getRecentPrioritizationFees: () => [],
    requestAirdrop: async ([key, amount]) => {
      const to = addressParam(key);
      const lamports = u64Param(amount, 'lamports');
      if (lamports > MAX_AIRDROP_LAMPORTS) throw new SvmRpcError(-32600, `airdrop request failed: ${lamports} lamports is above the faucet's limit of ${MAX_AIRDROP_LAMPORTS}`);
      try {
        const record = await ledger.airdrop(to, lamports, (from, recipient, value) => getTransferSolInstruction({ source: from, destination: recipient, amount: value }));
        return record.signature;
      } catch (error) {
        return rejection(error);
      }
    },
  };
}
