import type { ChainAdapter } from '../chains/ChainAdapter';
import { requireCapability } from '../chains/capabilities/requireCapability';
import type { Currency } from '../domain/chain/currency';
import type { ExpectationMismatch } from './checkExpectation';
import { checkBalance, checkExpectation } from './checkExpectation';
import type { ScenarioStep } from './scenarioSchema';
import { privateKeyOf, quoteNamed, resolveAddress, resolveCurrency, ScenarioStepError, type NamedQuote, type ScenarioRunState } from './scenarioRunState';
import { describeArg, encodeCall, encodeCallTxs, resolveCallValue } from './scenarioContracts';
import { revertStep, snapshotStep } from './steps/chainSnapshotSteps';
import { exchangeAccountStep } from './steps/exchangeAccountStep';
import { refusedDepositStep } from './steps/refusedDepositStep';
import { resendExchangeTransferStep } from './steps/resendExchangeTransferStep';
import { doubleSpendStep } from './steps/doubleSpendStep';
import { dropTransactionsStep } from './steps/dropTransactions';
import { restoreDepositFundsStep, sendImpersonated, solverAsUpstreamStep } from './steps/forkedChainSteps';
import { describeWaits } from './describeWaits';

/** Runs one step (every kind but `restart`, which the runner does) and says what it did, for the timeline. */
export async function executeScenarioStep(state: ScenarioRunState, step: ScenarioStep, index: number, mismatches: ExpectationMismatch[]): Promise<string> {
  const { sim } = state;
  const control = sim.control;
  switch (step.kind) {
    case 'quote':
      return quoteStep(state, step.spec, index);
    case 'deposit':
      return step.spec.expectError === undefined ? depositStep(state, step.spec, index) : refusedDepositStep(state, { ...step.spec, expectError: step.spec.expectError });
    case 'transfer': {
      const chain = control.chain(step.spec.chainId);
      const to = step.spec.to;
      const target = typeof to === 'string' && to.startsWith('depositAddress:') ? depositAddressOf(state, to.slice('depositAddress:'.length)) : resolveAddress(sim, chain, to, state.contracts);
      const currency = resolveCurrency(chain, step.spec.currency);
      const sent = await requireCapability(chain, 'userWallet', 'a transfer').transferFromUser(privateKeyOf(sim, chain, step.spec.from), target, currency, BigInt(step.spec.amount), { wait: step.spec.wait });
      return `${step.spec.amount} ${currency.symbol} on ${chain.chainId} to ${target}: tx ${sent.txHash} ${sent.status}`;
    }
    case 'solverRule': {
      const { request, ...match } = step.spec.match;
      const rule = control.solver.addRule({
        match: { ...match, ...(request ? { requestId: quoteNamed(state, request).requestId } : {}) },
        action: step.spec.action,
        ...(step.spec.probability === undefined ? {} : { probability: step.spec.probability }),
        ...(step.spec.times === undefined ? {} : { times: step.spec.times }),
      });
      return `rule ${JSON.stringify({ match: step.spec.match, action: rule.action, ...(rule.remaining === undefined ? {} : { times: rule.remaining }) })}`;
    }
    case 'clearSolverRules':
      control.solver.clearRules();
      return 'every solver rule removed';
    case 'advanceClock':
      await control.advanceTime(step.spec.seconds);
      return `${step.spec.seconds} s`;
    case 'mine': {
      const chain = control.chain(step.spec.chainId);
      if (step.spec.timestamp !== undefined) await chain.setNextBlockTimestamp(step.spec.timestamp);
      await chain.mine(step.spec.blocks);
      return `${step.spec.blocks} block(s) on ${step.spec.chainId}${step.spec.timestamp === undefined ? '' : ` from time ${step.spec.timestamp}`}`;
    }
    case 'automine':
      await control.chain(step.spec.chainId).setAutomine(step.spec.enabled);
      if (step.spec.enabled) state.automineOff.delete(step.spec.chainId);
      else state.automineOff.add(step.spec.chainId);
      return `${step.spec.enabled ? 'on' : 'off'} on ${step.spec.chainId}`;
    case 'deployContract': {
      const { spec } = step;
      const chain = control.chain(spec.chainId);
      if (state.contracts.has(spec.as)) throw new ScenarioStepError(`a contract is named "${spec.as}" already`);
      const args = (await resolveCallValue(state, chain, spec.args, 'args')) as unknown[];
      let address: string;
      try {
        address = await requireCapability(chain, 'fixtureContracts', `deploying ${spec.name}`).deploy(privateKeyOf(sim, chain, spec.from), spec.name, args);
      } catch (error) {
        throw new ScenarioStepError(`${spec.name} was not deployed: ${error instanceof Error ? error.message : String(error)}`);
      }
      state.contracts.set(spec.as, { alias: spec.as, chainId: spec.chainId, fixture: spec.name, address });
      return `${spec.as} = ${spec.name} at ${address} on ${spec.chainId}, deployed by ${resolveAddress(sim, chain, spec.from)}`;
    }
    case 'callContract': {
      const { spec } = step;
      const name = spec.contract.startsWith('contract:') ? spec.contract.slice('contract:'.length) : spec.contract;
      const chainId = spec.chainId ?? state.contracts.get(name)?.chainId;
      if (chainId === undefined) throw new ScenarioStepError(`say on which chain to call ${spec.contract} (chainId)`);
      const chain = control.chain(chainId);
      const { target, data } = await encodeCall(state, chain, { contract: spec.contract, function: spec.function, args: spec.args, abi: spec.abi }, 'callContract');
      const from = resolveAddress(sim, chain, spec.from);
      const call = `${target.label}.${spec.function}(${spec.args.map(describeArg).join(', ')})${spec.value === '0' ? '' : ` paying ${spec.value}`} from ${from} on ${chainId}`;
      const wallet = requireCapability(chain, 'userWallet', 'a contract call');
      const sent = await wallet.sendUserTransaction(privateKeyOf(sim, chain, spec.from), { to: target.address, data, value: spec.value }, { wait: spec.wait, aheadOfPending: !spec.wait }).catch((error: unknown) => {
        throw new ScenarioStepError(`${call}: ${error instanceof Error ? error.message : String(error)}`);
      });
      const text = `${call}: tx ${sent.txHash} ${sent.status}`;
      if (sent.status === 'failure') throw new ScenarioStepError(`${text}: it reverted`);
      return `${text}${spec.wait ? '' : ' (ahead of the pool)'}`;
    }
    case 'blockAccount': {
      const { spec } = step;
      const chain = control.chain(spec.chainId);
      const currency = resolveCurrency(chain, spec.currency);
      const account = resolveAddress(sim, chain, spec.account, state.contracts);
      const issuer = requireCapability(chain, 'fixtureContracts', 'an issuer blocklist change');
      const sent = await issuer.setBlockedByIssuer(currency, account, spec.blocked, { wait: spec.wait, aheadOfPending: !spec.wait }).catch((error: unknown) => {
        throw new ScenarioStepError(error instanceof Error ? error.message : String(error));
      });
      if (sent.status === 'failure') throw new ScenarioStepError(`the blocklist change ${sent.txHash} reverted`);
      return `${currency.symbol} issuer ${spec.blocked ? 'blocks' : 'unblocks'} ${account} on ${spec.chainId}: tx ${sent.txHash} ${sent.status}${spec.wait ? '' : ' (ahead of the pool)'}`;
    }
    case 'setCode': {
      const chain = control.chain(step.spec.chainId);
      const address = resolveAddress(sim, chain, step.spec.address, state.contracts);
      await chain.setCode(address, step.spec.code);
      return `code at ${address} on ${step.spec.chainId} replaced with ${step.spec.code}`;
    }
    case 'reorg':
      await control.chain(step.spec.chainId).reorg(step.spec.depth);
      return `last ${step.spec.depth} block(s) of ${step.spec.chainId} replaced`;
    case 'doubleSpend':
      return doubleSpendStep(state, step.spec);
    case 'rpcFault':
      if (step.spec.kind === null) control.rpcFaults.clear(step.spec.chainId);
      else control.rpcFaults.set({ chainId: step.spec.chainId, kind: step.spec.kind });
      return `${step.spec.kind ?? 'none'} on ${step.spec.chainId}`;
    case 'exchangeAccount':
      return exchangeAccountStep(state, step.spec);
    case 'resendExchangeTransfer':
      return resendExchangeTransferStep(state, step.spec);
    case 'dropTransactions':
      return dropTransactionsStep(state, step.spec);
    case 'snapshot':
      return snapshotStep(state, step.spec);
    case 'revert':
      return revertStep(state, step.spec);
    case 'expect': {
      const found = await checkExpectation(state, step.spec, index, step.line);
      // a request not where the step expects it: say what it waits on (a refund held in a mempool, a rule, a webhook retry)
      const waits = found.length === 0 ? [] : await describeWaits(state, step.spec.request);
      mismatches.push(...found.map((mismatch) => (waits.length === 0 ? mismatch : { ...mismatch, waits: waits.join('; ') })));
      return `${step.spec.request}: ${found.length === 0 ? 'as expected' : [...found.map((mismatch) => `${mismatch.what} is ${JSON.stringify(mismatch.actual)}`), ...waits].join('; ')}`;
    }
    case 'expectBalance': {
      const chain = control.chain(step.spec.chainId);
      const found = await checkBalance(chain, resolveAddress(sim, chain, step.spec.address, state.contracts), balanceCurrency(state, chain, step.spec.currency), step.spec, index, step.line);
      mismatches.push(...found);
      return `${step.spec.equals} ${step.spec.currency} on ${step.spec.chainId}: ${found.length === 0 ? 'as expected' : `is ${String(found[0]!.actual)}`}`;
    }
    case 'solverAsUpstream':
      return solverAsUpstreamStep(state, step.spec);
    case 'restoreDepositFunds':
      return restoreDepositFundsStep(state, step.spec);
    case 'restart':
      throw new ScenarioStepError('restart is run by the runner');
  }
}

async function quoteStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'quote' }>['spec'], index: number): Promise<string> {
  const { sim } = state;
  const origin = sim.control.chain(spec.originChainId);
  const destination = sim.control.chain(spec.destinationChainId);
  const originCurrency = resolveCurrency(origin, spec.originCurrency);
  const { as: _as, user: _user, recipient: _recipient, refundTo: _refundTo, expectError: _expectError, expectMessage: _expectMessage, txs, ...written } = spec;
  const body: Record<string, unknown> = {
    ...written,
    ...(txs === undefined ? {} : { txs: await encodeCallTxs(state, destination, txs) }),
    user: resolveAddress(sim, origin, spec.user),
    originChainId: spec.originChainId,
    destinationChainId: spec.destinationChainId,
    originCurrency: originCurrency.address,
    destinationCurrency: resolveCurrency(destination, spec.destinationCurrency).address,
    amount: spec.amount,
    tradeType: spec.tradeType,
    ...(spec.recipient === undefined ? {} : { recipient: resolveAddress(sim, destination, spec.recipient, state.contracts) }),
    ...(spec.refundTo === undefined ? {} : { refundTo: resolveAddress(sim, origin, spec.refundTo, state.contracts) }),
  };
  // the quote prices gas at the chains' latest indexed blocks: index both to their heads first
  await origin.syncNow();
  await destination.syncNow();
  const response = await fetch(`${sim.baseUrl}/quote/v2`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, any>;
  if (spec.expectError !== undefined) {
    if (response.status === 200) throw new ScenarioStepError(`expected the quote to be refused with ${spec.expectError}; it was answered 200`);
    if (answer.errorCode !== spec.expectError) throw new ScenarioStepError(`expected errorCode ${spec.expectError}; got ${response.status} ${String(answer.errorCode)}: ${String(answer.message)}`);
    if (spec.expectMessage === undefined) return `${spec.as} refused as expected: ${response.status} ${answer.errorCode}`;
    if (!String(answer.message).includes(spec.expectMessage)) throw new ScenarioStepError(`expected the refusal's message to contain "${spec.expectMessage}"; it is: ${String(answer.message)}`);
    return `${spec.as} refused as expected: ${response.status} ${answer.errorCode}: ${String(answer.message)}`;
  }
  if (response.status !== 200) throw new ScenarioStepError(`quote answered ${response.status} ${String(answer.errorCode)}: ${String(answer.message)}`);
  const steps = answer.steps as NamedQuote['steps'] & Array<{ requestId: string; depositAddress: string }>;
  const requestId = String(steps[0]!.requestId).toLowerCase();
  const depositAddress = steps[0]!.depositAddress || undefined;
  const named: NamedQuote = {
    alias: spec.as,
    index,
    requestId,
    user: String(body.user),
    originChainId: spec.originChainId,
    destinationChainId: spec.destinationChainId,
    originCurrency,
    amountIn: BigInt(answer.details.currencyIn.amount as string),
    depositAddress,
    steps,
  };
  state.quotes.set(spec.as, named);
  state.claimChanges(named);
  return `${spec.as} = ${requestId}: ${answer.details.operation} ${spec.originChainId} → ${spec.destinationChainId}, in ${answer.details.currencyIn.amount} ${originCurrency.symbol}, out ${answer.details.currencyOut.amount}${depositAddress ? `, deposit address ${depositAddress}` : ''}`;
}

async function depositStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'deposit' }>['spec'], index: number): Promise<string> {
  const { sim } = state;
  const quote = quoteNamed(state, spec.request);
  const chain = sim.control.chain(spec.chainId ?? quote.originChainId);
  const currency = spec.currency ? resolveCurrency(chain, spec.currency) : spec.chainId ? resolveCurrency(chain, quote.originCurrency.symbol) : quote.originCurrency;
  const amount = depositAmount(spec.amount, quote.amountIn);
  const from = spec.from ?? quote.user;
  const payer = resolveAddress(sim, chain, from);
  const requestId = (spec.requestId ?? quote.requestId).toLowerCase();
  const plain = amount === quote.amountIn && chain.chainId === quote.originChainId && currency.address === quote.originCurrency.address && requestId === quote.requestId;
  const hashes: string[] = [];
  let depositTxHash = '';
  if (spec.impersonate) {
    if (!spec.wait) throw new ScenarioStepError('an impersonated deposit waits for its receipt (wait: false is not for it)');
    // a Bitcoin quote names a deposit address and a PSBT paying it: what is sent is the steps' items
    if (!quote.steps.some((step) => step.items.length > 0)) throw new ScenarioStepError(`an impersonated deposit pays through the quote's steps, and quote "${spec.request}" has none to send: quote it without useDepositAddress`);
    const steps = plain ? quote.steps : await chain.buildDepositSteps({ requestId: requestId as `0x${string}`, user: payer, currency, amount });
    const sent = await sendImpersonated(state, { chainId: chain.chainId, from: payer, currency, amount, items: steps.flatMap((step) => step.items.map((item) => item.data)) });
    await chain.syncNow();
    depositTxHash = sent.txHashes.at(-1) ?? '';
    if (depositTxHash) quote.lastDepositTxHash = depositTxHash;
    if (spec.as) state.deposits.set(spec.as, { alias: spec.as, index, txHash: depositTxHash, quote });
    return `${spec.request}: ${amount} ${currency.symbol} on ${chain.chainId} from ${payer} (impersonated): ${sent.txHashes.join(', ')}${sent.notes.length > 0 ? `; ${sent.notes.join('; ')}` : ''}`;
  }
  const privateKey = privateKeyOf(sim, chain, from);
  const wallet = requireCapability(chain, 'userWallet', 'a deposit');
  if (quote.depositAddress && spec.requestId === undefined && !(plain && quote.steps.some((step) => step.items.length > 0))) {
    const sent = await wallet.transferFromUser(privateKey, quote.depositAddress, currency, amount, { wait: spec.wait });
    hashes.push(`${sent.txHash} ${sent.status}`);
    depositTxHash = sent.txHash;
  } else {
    const steps = plain ? quote.steps : await chain.buildDepositSteps({ requestId: requestId as `0x${string}`, user: payer, currency, amount });
    for (const step of steps) {
      for (const item of step.items) {
        const sent = await wallet.sendUserTransaction(privateKey, item.data, { wait: spec.wait });
        hashes.push(`${step.id} ${sent.txHash} ${sent.status}`);
        depositTxHash = sent.txHash;
        if (sent.status === 'failure') throw new ScenarioStepError(`the ${step.id} transaction ${sent.txHash} reverted`);
      }
    }
  }
  if (spec.wait) await chain.syncNow();
  if (depositTxHash) quote.lastDepositTxHash = depositTxHash;
  if (spec.as) state.deposits.set(spec.as, { alias: spec.as, index, txHash: depositTxHash, quote });
  return `${spec.as ? `${spec.as} (a deposit for ${spec.request}${spec.requestId ? ` naming ${spec.requestId}` : ''})` : spec.request}: ${amount} ${currency.symbol} on ${chain.chainId} from ${payer}${quote.depositAddress ? ` to deposit address ${quote.depositAddress}` : ''}: ${hashes.join(', ')}`;
}

/** A currency of the chain, or `contract:NAME`: a token a `deployContract` step deployed (read as an ERC-20 balance). */
function balanceCurrency(state: ScenarioRunState, chain: ChainAdapter, ref: string): Currency {
  if (!ref.startsWith('contract:')) return resolveCurrency(chain, ref);
  const name = ref.slice('contract:'.length);
  const address = resolveAddress(state.sim, chain, ref, state.contracts);
  return { chainId: chain.chainId, address: address as Currency['address'], symbol: name, name, decimals: 18, isNative: false, logoURI: '', verified: false, priceUsdMicros: 0n };
}

function depositAmount(text: string, quoted: bigint): bigint {
  const match = /^quoted(?:([+\-*])(\d+))?$/.exec(text);
  if (!match) return BigInt(text);
  const [, op, operand] = match;
  if (!op) return quoted;
  const value = BigInt(operand!);
  if (op === '+') return quoted + value;
  if (op === '*') return quoted * value;
  if (value > quoted) throw new ScenarioStepError(`quoted-${value} is below zero (quoted ${quoted})`);
  return quoted - value;
}

function depositAddressOf(state: ScenarioRunState, alias: string): string {
  const quote = quoteNamed(state, alias);
  if (!quote.depositAddress) throw new ScenarioStepError(`quote "${alias}" has no deposit address (quote it with useDepositAddress: true)`);
  return quote.depositAddress;
}

