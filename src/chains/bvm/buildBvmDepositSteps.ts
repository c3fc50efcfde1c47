import type { QuoteStep } from '../../domain/quote/quoteStep';
import { SimulatorError } from '../../errors/SimulatorError';
import { BVM_NETWORK, bitcoin, isP2wpkhScript, outputScriptOf, type BvmLedger, selectCoins, spendableCoinsOf } from '../../nodes/bvm';

/** The user's coins do not cover the deposit and its network fee: no transaction can be built for them to sign. */
export class BvmInsufficientFundsError extends SimulatorError {
  constructor(message: string) {
    super('INSUFFICIENT_FUNDS', 400, message);
  }
}

export interface BvmDepositStepParams {
  user: string;
  amount: bigint;
  depositAddress: string;
  ledger: BvmLedger;
}

/**
 * The deposit step of a BVM-origin quote (SPEC §2.2, the service's Bitcoin guide): one item
 * whose `data.psbt` is an unsigned PSBT (hex) the user's wallet signs, as the official SDK's
 * Bitcoin adapter reads it (`Psbt.fromHex(item.data.psbt)`). It spends the user's spendable p2wpkh coins (`spendableCoinsOf`: never an immature coinbase)
 * (each input carries its `witnessUtxo`), pays `amount` satoshis to the request's deposit address
 * and the change back to the user; the network fee is on top of `amount`.
 */
export function buildBvmDepositSteps(params: BvmDepositStepParams): QuoteStep[] {
  const userScript = outputScriptOf(params.user);
  if (!userScript || !isP2wpkhScript(userScript)) throw new BvmInsufficientFundsError(`user ${params.user} is not a p2wpkh (bcrt1q) address: its coins cannot be spent by this deposit`);
  const coins = spendableCoinsOf(params.ledger, userScript);
  const selected = selectCoins(coins, params.amount);
  if (!selected) {
    const balance = coins.reduce((sum, coin) => sum + coin.value, 0n);
    throw new BvmInsufficientFundsError(`user ${params.user} holds ${balance} sats in ${coins.length} spendable coins (immature coinbases do not count): not enough for a deposit of ${params.amount} sats plus its network fee`);
  }
  const psbt = new bitcoin.Psbt({ network: BVM_NETWORK });
  for (const coin of selected.coins) {
    psbt.addInput({ hash: coin.txid, index: coin.vout, sequence: 0xfffffffd, witnessUtxo: { script: coin.script, value: coin.value } });
  }
  psbt.addOutput({ address: params.depositAddress, value: params.amount });
  // change below the dust threshold goes to the fee, as wallets do
  if (selected.change >= 546n) psbt.addOutput({ script: userScript, value: selected.change });
  return [
    {
      id: 'deposit',
      action: 'Confirm transaction in your wallet',
      description: 'Depositing funds to the relayer to execute the request for BTC',
      kind: 'transaction',
      depositAddress: params.depositAddress,
      items: [{ status: 'incomplete', data: { psbt: psbt.toHex() }, withCheck: true }],
    },
  ];
}
