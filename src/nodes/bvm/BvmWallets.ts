import { BvmRpcError } from './bvmRpcError';
import { BvmWallet } from './BvmWallet';

/** Bitcoin Core's wallet RPC error codes (src/rpc/protocol.h). */
export const BVM_WALLET_ERRORS = {
  /** RPC_WALLET_ERROR */
  wallet: -4,
  /** RPC_WALLET_INSUFFICIENT_FUNDS */
  insufficientFunds: -6,
  /** RPC_WALLET_NOT_FOUND */
  notFound: -18,
  /** RPC_WALLET_NOT_SPECIFIED */
  notSpecified: -19,
  /** RPC_WALLET_ALREADY_LOADED */
  alreadyLoaded: -35,
} as const;

/** A wallet change, told to the journal before it is made; applying the same changes again gives the same wallets. */
export type BvmWalletChange =
  | { kind: 'walletCreated'; name: string }
  | { kind: 'walletLoaded'; name: string }
  | { kind: 'walletUnloaded'; name: string }
  | { kind: 'walletKey'; name: string; change: boolean };

const WALLET_DIR = '/home/intentsim/.bitcoin/regtest/wallets';

/**
 * The node's wallets as bitcoind keeps them: created (and loaded) by `createwallet`, loaded and
 * unloaded by name, chosen per request by the `/wallet/<name>` URL path or, on `/`, the only
 * loaded one. Every change (a wallet created, loaded, unloaded, a key handed out) goes to the
 * recorder first, so the node's journal brings them back after a restart on `--db`.
 */
export class BvmWallets {
  private readonly wallets = new Map<string, BvmWallet>();
  private readonly loaded = new Set<string>();
  private recorder: ((change: BvmWalletChange) => void) | undefined;

  constructor(private readonly nodeSeed: Uint8Array) {}

  recordChangesWith(recorder: ((change: BvmWalletChange) => void) | undefined): void {
    this.recorder = recorder;
  }

  /** Applies a journaled change (no recorder is told). */
  apply(change: BvmWalletChange): void {
    const recorder = this.recorder;
    this.recorder = undefined;
    try {
      if (change.kind === 'walletCreated') this.create(change.name);
      else if (change.kind === 'walletLoaded') this.load(change.name);
      else if (change.kind === 'walletUnloaded') this.unload(change.name);
      else this.deriveKey(this.wallets.get(change.name)!, change.change);
    } finally {
      this.recorder = recorder;
    }
  }

  create(name: string): BvmWallet {
    if (this.wallets.has(name)) throw new BvmRpcError(BVM_WALLET_ERRORS.wallet, `Wallet file verification failed. Failed to create database path '${WALLET_DIR}/${name}'. Database already exists.`);
    this.recorder?.({ kind: 'walletCreated', name });
    const wallet = new BvmWallet(name, this.nodeSeed);
    this.wallets.set(name, wallet);
    this.loaded.add(name);
    return wallet;
  }

  load(name: string): BvmWallet {
    const wallet = this.wallets.get(name);
    if (!wallet) throw new BvmRpcError(BVM_WALLET_ERRORS.notFound, `Wallet file verification failed. Failed to load database path '${WALLET_DIR}/${name}'. Path does not exist.`);
    if (this.loaded.has(name)) throw new BvmRpcError(BVM_WALLET_ERRORS.alreadyLoaded, `Wallet "${name}" is already loaded.`);
    this.recorder?.({ kind: 'walletLoaded', name });
    this.loaded.add(name);
    return wallet;
  }

  unload(name: string): void {
    if (!this.loaded.has(name)) throw new BvmRpcError(BVM_WALLET_ERRORS.notFound, 'Requested wallet does not exist or is not loaded');
    this.recorder?.({ kind: 'walletUnloaded', name });
    this.loaded.delete(name);
  }

  /** A new receive or change key of a wallet (journaled). */
  deriveKey(wallet: BvmWallet, change: boolean) {
    this.recorder?.({ kind: 'walletKey', name: wallet.name, change });
    return wallet.deriveNext(change);
  }

  loadedNames(): string[] {
    return [...this.loaded];
  }

  allNames(): string[] {
    return [...this.wallets.keys()];
  }

  /** The wallet a wallet method runs on: the URL's (`/wallet/<name>`), else the only loaded one, with Core's -18 / -19 otherwise. */
  resolve(urlName: string | undefined): BvmWallet {
    if (urlName !== undefined) {
      if (!this.loaded.has(urlName)) throw new BvmRpcError(BVM_WALLET_ERRORS.notFound, 'Requested wallet does not exist or is not loaded');
      return this.wallets.get(urlName)!;
    }
    const [only, ...others] = this.loaded;
    if (only === undefined) throw new BvmRpcError(BVM_WALLET_ERRORS.notFound, 'No wallet is loaded. Load a wallet using loadwallet or create a new one with createwallet. (Note: A default wallet is no longer automatically created)');
    if (others.length > 0) throw new BvmRpcError(BVM_WALLET_ERRORS.notSpecified, 'Wallet file not specified (must request wallet RPC through /wallet/<filename> uri-path).');
    return this.wallets.get(only)!;
  }
}
