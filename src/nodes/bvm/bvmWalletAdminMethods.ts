import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { boolParam, isAbsent, stringParam } from './bvmRpcParams';
import type { BvmWallets } from './BvmWallets';

type Method = (params: unknown[], urlWallet: string | undefined) => unknown;

/** `createwallet`, `loadwallet`, `unloadwallet`, `listwallets`, `listwalletdir`: descriptor wallets only, as Core builds today. */
export function bvmWalletAdminMethods(wallets: BvmWallets): Record<string, Method> {
  return {
    createwallet: (params) => {
      const name = stringParam(params, 0);
      if (boolParam(params, 1, false)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Wallets without private keys are not simulated');
      if (!isAbsent(params[3]) && params[3] !== '') throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Encrypted wallets are not simulated');
      if (params[5] === false) throw new BvmRpcError(-4, 'Compiled without bdb support (required for legacy wallets)');
      return { name: wallets.create(name).name };
    },
    loadwallet: (params) => ({ name: wallets.load(stringParam(params, 0)).name }),
    unloadwallet: (params, urlWallet) => {
      const named = isAbsent(params[0]) ? undefined : stringParam(params, 0);
      if (named !== undefined && urlWallet !== undefined && named !== urlWallet) {
        throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'RPC endpoint wallet and wallet_name parameter specify different wallets');
      }
      wallets.unload(named ?? urlWallet ?? wallets.resolve(undefined).name);
      return {};
    },
    listwallets: () => wallets.loadedNames(),
    listwalletdir: () => ({ wallets: wallets.allNames().map((name) => ({ name })) }),
  };
}
