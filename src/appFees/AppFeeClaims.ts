import { isAddress, verifyTypedData, type Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import { SolverBroadcastRefusedError } from '../chains/SolverBroadcastRefusedError';
import type { VirtualClock } from '../clock/VirtualClock';
import type { Currency } from '../domain/chain/currency';
import type { AppFeeClaim } from '../domain/appFees/appFeeClaim';
import { appFeeClaimTypedData } from '../domain/appFees/appFeeClaimTypedData';
import { appFeeBalancesView, appFeeClaimView } from '../domain/appFees/appFeeViews';
import type { SolverPayment } from '../domain/fill/solverPayment';
import {
  AppFeeClaimAlreadySignedError,
  AppFeeClaimChainUnsupportedError,
  AppFeeClaimNotFoundError,
  AppFeeClaimPaymentFailedError,
  AppFeeClaimPaymentPendingError,
  InsufficientAppFeeBalanceError,
} from '../errors/appFeeErrors';
import { InvalidSignatureError } from '../errors/authorizeErrors';
import { InvalidAddressError, UnsupportedCurrencyError } from '../errors/quoteErrors';
import type { AppFeeStore } from '../store/AppFeeStore';

export interface AppFeeClaimsDeps {
  chains: ReadonlyMap<number, ChainAdapter>;
  store: AppFeeStore;
  clock: VirtualClock;
  log: (message: string, error?: unknown) => void;
}

export interface ClaimInput {
  chainId: number;
  currency: string;
  recipient: string;
  /** Absent: the whole balance. */
  amount?: bigint;
}

/**
 * SPEC §1.6 app fees after they are collected: balances (credited by the lifecycle when a request
 * with app fees succeeds), claims, and the claim's payment on chain. A claim is two calls, as the
 * official SDK's `claimAppFees` makes them: `POST /app-fees/{wallet}/claim` answers one
 * `signature` step (EIP-712, the claim's terms); the SDK signs it and posts the signature to the
 * step's endpoint, where the balance is debited and the solver pays the recipient from its own
 * inventory with a real transfer on the claim's chain (through the chain adapter).
 */
export class AppFeeClaims {
  constructor(private readonly deps: AppFeeClaimsDeps) {}

  /** A wallet as its chain normalizes it; INVALID_ADDRESS when no chain of the simulator takes it. */
  normalizeWallet(wallet: string): string {
    const chain = [...this.deps.chains.values()].find((candidate) => candidate.isValidAddress(wallet));
    if (!chain) throw new InvalidAddressError(`wallet ${wallet} is not a valid address on any chain of this simulator`);
    return chain.normalizeAddress(wallet);
  }

  /** `GET /app-fees/{wallet}/balances`. */
  balances(walletInput: string) {
    const wallet = this.normalizeWallet(walletInput);
    // a balance on a chain this run does not serve (a database from a run with other chains) is kept, not shown
    const priced = this.deps.store.balances(wallet).flatMap((balance) => {
      const currency = this.deps.chains.get(balance.chainId)?.findCurrency(balance.currency);
      return currency ? [{ currency, amount: balance.amount }] : [];
    });
    return appFeeBalancesView(priced);
  }

  /** `POST /app-fees/{wallet}/claim`: checks the claim against the balance, records it unsigned, answers its signature step. */
  startClaim(walletInput: string, input: ClaimInput) {
    const wallet = this.signingWallet(walletInput);
    const chain = this.deps.chains.get(input.chainId);
    if (!chain) throw new AppFeeClaimChainUnsupportedError(input.chainId);
    const currency = chain.findCurrency(input.currency);
    if (!currency) throw new UnsupportedCurrencyError(input.currency, input.chainId);
    if (!chain.isValidAddress(input.recipient)) throw new InvalidAddressError(`recipient ${input.recipient} is not a valid address on chain ${input.chainId}`);
    const recipient = chain.normalizeAddress(input.recipient);
    const balance = this.deps.store.balanceOf(wallet, chain.chainId, currency.address);
    if (balance === 0n) throw new InsufficientAppFeeBalanceError(`${wallet} has no app fees of ${currency.symbol} on chain ${chain.chainId} to claim`);
    const amount = input.amount ?? balance;
    if (amount === 0n) throw new InsufficientAppFeeBalanceError('amount must be greater than 0');
    if (amount > balance) throw new InsufficientAppFeeBalanceError(`amount ${amount} is more than the ${balance} of ${currency.symbol} ${wallet} can claim on chain ${chain.chainId}`);
    const claim = this.deps.store.createClaim({ wallet, chainId: chain.chainId, currency: currency.address, recipient, amount }, this.deps.clock.now());
    return { steps: this.claimSteps(claim, currency) };
  }

  /** The signature post of a claim's step: verifies, debits, pays on chain and answers once the payment is mined. */
  async executeClaim(walletInput: string, claimId: string, signature: Hex) {
    const wallet = this.signingWallet(walletInput);
    const claim = this.deps.store.getClaim(claimId);
    if (!claim || claim.wallet !== wallet) throw new AppFeeClaimNotFoundError(claimId);
    if (claim.status !== 'unsigned') throw new AppFeeClaimAlreadySignedError(claim.id, claim.status);
    const valid = await verifyTypedData({ ...appFeeClaimTypedData(this.claimMessage(claim)), address: wallet as Hex, signature }).catch(() => false);
    if (!valid) throw new InvalidSignatureError(`the signature does not recover to ${wallet} for app fee claim ${claim.id}`);

    const debit = this.deps.store.debitClaim(claim.id, this.deps.clock.now());
    if (!debit.ok) {
      if (debit.reason === 'insufficient') {
        throw new InsufficientAppFeeBalanceError(`the balance left (${debit.balance ?? 0n}) no longer covers claim ${claim.id} of ${claim.amount}: another claim took it`);
      }
      throw new AppFeeClaimAlreadySignedError(claim.id, debit.claim?.status ?? 'unknown');
    }
    const paid = await this.pay(debit.claim);
    if (paid.status !== 'success') throw new AppFeeClaimPaymentFailedError(claim.id, paid.txHash);
    return { message: 'App fees claimed', claimId: claim.id, status: paid.status, txHash: paid.txHash, chainId: claim.chainId };
  }

  /**
   * Finishes the claims a stopped process left debited but not settled: the payment is sent (or,
   * signed before the stop, sent again: one transaction per claim id) and its receipt recorded.
   * Called once at start; a claim that fails here is logged and left as it is.
   */
  async resumePending(): Promise<void> {
    for (const claim of this.deps.store.pendingClaims()) {
      if (!this.deps.chains.has(claim.chainId)) continue;
      await this.pay(claim).catch((error: unknown) => this.deps.log(`app fees: claim ${claim.id} could not be resumed`, error));
    }
  }

  /**
   * Pays a debited claim from the solver's inventory on its chain and records the outcome. A send
   * the node refused kept nothing, so the claim fails and the amount is back in the balance; any
   * other trouble (no answer, no receipt yet) leaves it `pending`, since a payment signed and kept
   * may still land: the next start settles it (CLAIM_PAYMENT_PENDING).
   */
  private async pay(claim: AppFeeClaim): Promise<{ status: 'success' | 'failure'; txHash: Hex | null }> {
    const chain = this.deps.chains.get(claim.chainId)!;
    const payment: SolverPayment = { requestId: claim.id, currency: this.currencyOf(claim.chainId, claim.currency), recipient: claim.recipient, amount: claim.amount };
    let txHash: Hex;
    try {
      txHash = (await chain.solverWallet.sendPayment('fill', payment)).txHash;
    } catch (error) {
      this.deps.log(`app fees: claim ${claim.id} could not be paid`, error);
      if (!(error instanceof SolverBroadcastRefusedError)) throw new AppFeeClaimPaymentPendingError(claim.id, null);
      this.deps.store.recordPayment(claim.id, { txHash: null, status: 'failure' }, this.deps.clock.now());
      return { status: 'failure', txHash: null };
    }
    this.deps.store.recordPayment(claim.id, { txHash, status: 'pending' }, this.deps.clock.now());
    const mined = await chain.solverWallet.awaitPayment(txHash, 'fill', payment).catch((error: unknown) => {
      this.deps.log(`app fees: no receipt yet for claim ${claim.id} (${txHash})`, error);
      throw new AppFeeClaimPaymentPendingError(claim.id, txHash);
    });
    this.deps.store.recordPayment(claim.id, { txHash, status: mined.status }, this.deps.clock.now());
    return { status: mined.status, txHash };
  }

  /** `GET /app-fees/{wallet}/claims`: signed claims, newest first; `continuation` is the last claim's number. */
  listClaims(walletInput: string, limit: number, continuation?: number) {
    const wallet = this.normalizeWallet(walletInput);
    const page = this.deps.store.listClaims(wallet, limit + 1, continuation);
    const shown = page.slice(0, limit);
    return {
      claims: shown.flatMap((claim) => {
        const currency = this.deps.chains.get(claim.chainId)?.findCurrency(claim.currency);
        return currency ? [appFeeClaimView(claim, currency)] : [];
      }),
      ...(page.length > limit ? { continuation: String(shown.at(-1)!.seq) } : {}),
    };
  }

  /** Claims are signed with EIP-712 (an `address` field): the wallet must be a 0x address. */
  private signingWallet(walletInput: string): string {
    const wallet = this.normalizeWallet(walletInput);
    if (!isAddress(wallet)) throw new InvalidAddressError(`wallet ${walletInput}: app fee claims are signed with EIP-712, so the wallet must be a 0x address`);
    return wallet;
  }

  private currencyOf(chainId: number, address: string): Currency {
    const currency = this.deps.chains.get(chainId)?.findCurrency(address);
    if (!currency) throw new UnsupportedCurrencyError(address, chainId);
    return currency;
  }

  private claimMessage(claim: AppFeeClaim) {
    return { claimId: claim.id, wallet: claim.wallet as Hex, chainId: claim.chainId, currency: claim.currency, recipient: claim.recipient, amount: claim.amount };
  }

  /** The one `signature` step of a claim (the SDK's `executeSteps` signs `sign` and posts to `post`). */
  private claimSteps(claim: AppFeeClaim, currency: Currency) {
    const typed = appFeeClaimTypedData(this.claimMessage(claim));
    return [
      {
        id: 'claim',
        action: 'Confirm claim',
        description: `Sign to claim ${claim.amount} ${currency.symbol} of app fees on chain ${claim.chainId}, paid to ${claim.recipient}`,
        kind: 'signature',
        items: [
          {
            status: 'incomplete',
            data: {
              sign: {
                signatureKind: 'eip712',
                domain: typed.domain,
                types: typed.types,
                primaryType: typed.primaryType,
                value: { ...typed.message, chainId: String(claim.chainId), amount: claim.amount.toString() },
              },
              post: { endpoint: `/app-fees/${claim.wallet}/claims/${claim.id}/signature`, method: 'POST', body: { claimId: claim.id } },
            },
          },
        ],
      },
    ];
  }
}
