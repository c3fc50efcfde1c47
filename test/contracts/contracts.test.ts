/**
 * Behaviour of the simulator's contracts on a real Anvil node, deployed from the committed
 * artifacts (fixtures/contracts/artifacts.generated.ts).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeErrorResult,
  decodeFunctionResult,
  defineChain,
  encodeFunctionData,
  getAddress,
  http,
  isHex,
  keccak256,
  parseEther,
  parseEventLogs,
  parseSignature,
  toHex,
} from 'viem';
import type { Abi, Address, Hash, Hex, TransactionReceipt } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import {
  depositoryArtifact,
  multicall3Artifact,
  serviceReceiverArtifact,
  stablecoinArtifact,
  wrappedNativeArtifact,
} from '../../fixtures/contracts/artifacts.generated';

const ANVIL_BIN = fileURLToPath(new URL('../../node_modules/.bin/anvil', import.meta.url));
const MNEMONIC = 'test test test test test test test test test test test junk';
const ZERO: Address = '0x0000000000000000000000000000000000000000';

/** Spawns `anvil --port 0` and resolves with its URL once it prints `Listening on host:port`. */
function startAnvil(): Promise<{ url: string; proc: ChildProcessWithoutNullStreams }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(ANVIL_BIN, ['--port', '0', '--chain-id', '31337'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let done = false;
    const timer = setTimeout(() => fail(new Error(`anvil did not start in time:\n${out}`)), 20_000);
    function fail(err: Error): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(err);
    }
    // Keep draining both pipes for the whole run so anvil never blocks on a full pipe.
    proc.stderr.on('data', (chunk: Buffer) => {
      if (!done) out += chunk.toString();
    });
    proc.stdout.on('data', (chunk: Buffer) => {
      if (done) return;
      out += chunk.toString();
      const m = /Listening on ([\d.]+):(\d+)/.exec(out);
      if (m) {
        done = true;
        clearTimeout(timer);
        resolve({ url: `http://${m[1]}:${m[2]}`, proc });
      }
    });
    proc.on('error', (err) => fail(err));
    proc.on('exit', (code) => fail(new Error(`anvil exited early (code ${code}):\n${out}`)));
  });
}

function stopAnvil(proc: ChildProcessWithoutNullStreams): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    proc.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

/** A fresh, never-used address derived from a label. */
const freshAddress = (label: string): Address => getAddress(keccak256(toHex(label)).slice(0, 42));
const requestId = (label: string): Hex => keccak256(toHex(`request:${label}`));

const owner = mnemonicToAccount(MNEMONIC); // deployer, token owner, depository owner, solver
const user = mnemonicToAccount(MNEMONIC, { addressIndex: 1 });
const other = mnemonicToAccount(MNEMONIC, { addressIndex: 2 });

let anvil: ChildProcessWithoutNullStreams | undefined;
let url = '';

function clients() {
  const chain = defineChain({
    id: 31337,
    name: 'Anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const transport = http(url);
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 10 }),
    walletClient: createWalletClient({ chain, transport, account: owner, pollingInterval: 10 }),
    testClient: createTestClient({ chain, transport, mode: 'anvil', pollingInterval: 10 }),
  };
}
let c: ReturnType<typeof clients>;

async function mined(hash: Hash | Promise<Hash>): Promise<TransactionReceipt> {
  const receipt = await c.publicClient.waitForTransactionReceipt({
    hash: await hash,
    pollingInterval: 10,
  });
  expect(receipt.status).toBe('success');
  return receipt;
}

async function deployed(hash: Promise<Hash>): Promise<Address> {
  const receipt = await mined(hash);
  if (!receipt.contractAddress) throw new Error('no contract address in receipt');
  return getAddress(receipt.contractAddress); // receipts carry it lowercased
}

/**
 * Asserts that `action` reverts with custom error `errorName` (decoded with `abi`, which may be a
 * union of the called contract's and a callee's ABI), optionally with `args`.
 */
async function expectRevert(
  action: Promise<unknown>,
  abi: Abi,
  errorName: string,
  args?: readonly unknown[],
): Promise<void> {
  const err: unknown = await action.then(
    () => {
      throw new Error(`expected a revert with ${errorName}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BaseError);
  let data: Hex | undefined;
  (err as BaseError).walk((e) => {
    if (e instanceof ContractFunctionRevertedError && e.raw) data = e.raw;
    else if (!data && e instanceof BaseError) {
      const d = (e as { data?: unknown }).data;
      if (typeof d === 'string' && isHex(d) && d.length >= 10) data = d;
    }
    return false;
  });
  expect(data, `no revert data in: ${String(err)}`).toBeDefined();
  const decoded = decodeErrorResult({ abi, data: data as Hex });
  expect(decoded.errorName).toBe(errorName);
  if (args) expect(decoded.args).toEqual(args);
}

beforeAll(async () => {
  const started = await startAnvil();
  anvil = started.proc;
  url = started.url;
  c = clients();
}, 30_000);

afterAll(async () => {
  if (anvil) await stopAnvil(anvil);
});

async function deployStablecoin(): Promise<Address> {
  return deployed(
    c.walletClient.deployContract({
      abi: stablecoinArtifact.abi,
      bytecode: stablecoinArtifact.bytecode,
      args: ['USD Coin', 'USDC', owner.address],
    }),
  );
}

async function mint(token: Address, to: Address, amount: bigint): Promise<void> {
  await mined(
    c.walletClient.writeContract({
      address: token,
      abi: stablecoinArtifact.abi,
      functionName: 'mint',
      args: [to, amount],
    }),
  );
}

const balanceOf = (token: Address, account: Address): Promise<bigint> =>
  c.publicClient.readContract({
    address: token,
    abi: stablecoinArtifact.abi,
    functionName: 'balanceOf',
    args: [account],
  });

describe('contracts on anvil', { timeout: 30_000 }, () => {
  it('Stablecoin: EIP-2612 permit and EIP-3009 transfer/receive authorizations, checked for real', async () => {
    const usdc = await deployStablecoin();
    const read = { address: usdc, abi: stablecoinArtifact.abi } as const;
    await mint(usdc, user.address, 1_000_000n);
    const domain = { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: usdc } as const;
    expect(await c.publicClient.readContract({ ...read, functionName: 'version' })).toBe('2');
    const split = (signature: Hex) => {
      const { r, s, v } = parseSignature(signature);
      return { r, s, v: Number(v) };
    };

    // EIP-2612: the user signs, the owner account submits; the allowance is set and the nonce moves
    const permit = { owner: user.address, spender: other.address, value: 400_000n, nonce: 0n, deadline: 2n ** 40n };
    const permitSignature = split(
      await user.signTypedData({
        domain,
        types: { Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }] },
        primaryType: 'Permit',
        message: permit,
      }),
    );
    const permitArgs = [user.address, other.address, 400_000n, permit.deadline, permitSignature.v, permitSignature.r, permitSignature.s] as const;
    await mined(c.walletClient.writeContract({ ...read, functionName: 'permit', args: permitArgs }));
    expect(await c.publicClient.readContract({ ...read, functionName: 'allowance', args: [user.address, other.address] })).toBe(400_000n);
    expect(await c.publicClient.readContract({ ...read, functionName: 'nonces', args: [user.address] })).toBe(1n);
    // the same signature again: the nonce moved on, so it recovers to someone else
    await expectRevert(c.walletClient.writeContract({ ...read, functionName: 'permit', args: permitArgs }), stablecoinArtifact.abi, 'InvalidSignature');

    const authorizationTypes = (primaryType: 'TransferWithAuthorization' | 'ReceiveWithAuthorization') => ({
      [primaryType]: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    });
    const nonce = requestId('eip3009');
    const transfer = { from: user.address, to: other.address, value: 100_000n, validAfter: 0n, validBefore: 2n ** 40n, nonce };
    const transferSignature = split(await user.signTypedData({ domain, types: authorizationTypes('TransferWithAuthorization'), primaryType: 'TransferWithAuthorization', message: transfer }));
    const transferArgs = [user.address, other.address, 100_000n, 0n, 2n ** 40n, nonce, transferSignature.v, transferSignature.r, transferSignature.s] as const;
    // anyone may submit a transfer authorization (here the owner account): the user sends nothing
    await mined(c.walletClient.writeContract({ ...read, functionName: 'transferWithAuthorization', args: transferArgs }));
    expect(await balanceOf(usdc, other.address)).toBe(100_000n);
    expect(await c.publicClient.readContract({ ...read, functionName: 'authorizationState', args: [user.address, nonce] })).toBe(true);
    await expectRevert(c.walletClient.writeContract({ ...read, functionName: 'transferWithAuthorization', args: transferArgs }), stablecoinArtifact.abi, 'AuthorizationAlreadyUsed', [user.address, nonce]);

    // receiveWithAuthorization: only the payee may submit it
    const receiveNonce = requestId('eip3009-receive');
    const receive = { from: user.address, to: other.address, value: 50_000n, validAfter: 0n, validBefore: 2n ** 40n, nonce: receiveNonce };
    const receiveSignature = split(await user.signTypedData({ domain, types: authorizationTypes('ReceiveWithAuthorization'), primaryType: 'ReceiveWithAuthorization', message: receive }));
    const receiveArgs = [user.address, other.address, 50_000n, 0n, 2n ** 40n, receiveNonce, receiveSignature.v, receiveSignature.r, receiveSignature.s] as const;
    await expectRevert(c.walletClient.writeContract({ ...read, functionName: 'receiveWithAuthorization', args: receiveArgs }), stablecoinArtifact.abi, 'CallerMustBePayee');
    await mined(c.walletClient.writeContract({ ...read, account: other, functionName: 'receiveWithAuthorization', args: receiveArgs }));
    expect(await balanceOf(usdc, other.address)).toBe(150_000n);
    // an authorization already expired
    const expired = { ...transfer, nonce: requestId('expired'), validBefore: 1n };
    const expiredSignature = split(await user.signTypedData({ domain, types: authorizationTypes('TransferWithAuthorization'), primaryType: 'TransferWithAuthorization', message: expired }));
    await expectRevert(
      c.walletClient.writeContract({ ...read, functionName: 'transferWithAuthorization', args: [user.address, other.address, 100_000n, 0n, 1n, expired.nonce, expiredSignature.v, expiredSignature.r, expiredSignature.s] }),
      stablecoinArtifact.abi,
      'SignatureExpired',
    );
  });

  it('Stablecoin: metadata, mint, transfer, allowance, blocklist', async () => {
    const usdc = await deployStablecoin();
    const read = { address: usdc, abi: stablecoinArtifact.abi } as const;
    expect(await c.publicClient.readContract({ ...read, functionName: 'decimals' })).toBe(6);
    expect(await c.publicClient.readContract({ ...read, functionName: 'name' })).toBe('USD Coin');
    expect(await c.publicClient.readContract({ ...read, functionName: 'symbol' })).toBe('USDC');

    await mint(usdc, user.address, 1_000_000n);
    expect(await balanceOf(usdc, user.address)).toBe(1_000_000n);
    expect(await c.publicClient.readContract({ ...read, functionName: 'totalSupply' })).toBe(
      1_000_000n,
    );
    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'mint',
        args: [user.address, 1n],
      }),
      stablecoinArtifact.abi,
      'NotOwner',
    );

    const receipt = await mined(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'transfer',
        args: [other.address, 250_000n],
      }),
    );
    const [transfer] = parseEventLogs({
      abi: stablecoinArtifact.abi,
      logs: receipt.logs,
      eventName: 'Transfer',
    });
    expect(transfer?.args).toEqual({ from: user.address, to: other.address, value: 250_000n });
    expect(await balanceOf(usdc, user.address)).toBe(750_000n);
    expect(await balanceOf(usdc, other.address)).toBe(250_000n);

    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        account: other,
        functionName: 'transfer',
        args: [user.address, 250_001n],
      }),
      stablecoinArtifact.abi,
      'InsufficientBalance',
    );

    // Finite allowance is decremented; infinite allowance is not.
    await mined(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'approve',
        args: [owner.address, 100n],
      }),
    );
    await mined(
      c.walletClient.writeContract({
        ...read,
        functionName: 'transferFrom',
        args: [user.address, other.address, 60n],
      }),
    );
    expect(
      await c.publicClient.readContract({
        ...read,
        functionName: 'allowance',
        args: [user.address, owner.address],
      }),
    ).toBe(40n);
    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        functionName: 'transferFrom',
        args: [user.address, other.address, 41n],
      }),
      stablecoinArtifact.abi,
      'InsufficientAllowance',
    );
    const max = 2n ** 256n - 1n;
    await mined(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'approve',
        args: [owner.address, max],
      }),
    );
    await mined(
      c.walletClient.writeContract({
        ...read,
        functionName: 'transferFrom',
        args: [user.address, other.address, 1_000n],
      }),
    );
    expect(
      await c.publicClient.readContract({
        ...read,
        functionName: 'allowance',
        args: [user.address, owner.address],
      }),
    ).toBe(max);

    // Blocklist: transfers to or from a blocked account revert with AccountBlocked(account).
    await mined(
      c.walletClient.writeContract({
        ...read,
        functionName: 'setBlocked',
        args: [other.address, true],
      }),
    );
    expect(
      await c.publicClient.readContract({
        ...read,
        functionName: 'isBlocked',
        args: [other.address],
      }),
    ).toBe(true);
    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'transfer',
        args: [other.address, 1n],
      }),
      stablecoinArtifact.abi,
      'AccountBlocked',
      [other.address],
    );
    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        account: other,
        functionName: 'transfer',
        args: [user.address, 1n],
      }),
      stablecoinArtifact.abi,
      'AccountBlocked',
      [other.address],
    );
    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        functionName: 'transferFrom',
        args: [user.address, other.address, 1n],
      }),
      stablecoinArtifact.abi,
      'AccountBlocked',
      [other.address],
    );
    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'setBlocked',
        args: [other.address, false],
      }),
      stablecoinArtifact.abi,
      'NotOwner',
    );
    await mined(
      c.walletClient.writeContract({
        ...read,
        functionName: 'setBlocked',
        args: [other.address, false],
      }),
    );
    await mined(
      c.walletClient.writeContract({
        ...read,
        account: other,
        functionName: 'transfer',
        args: [user.address, 1n],
      }),
    );
  });

  it('WrappedNative: deposit, receive, withdraw', async () => {
    const weth = await deployed(
      c.walletClient.deployContract({
        abi: wrappedNativeArtifact.abi,
        bytecode: wrappedNativeArtifact.bytecode,
        args: ['Wrapped Ether', 'WETH'],
      }),
    );
    const read = { address: weth, abi: wrappedNativeArtifact.abi } as const;
    expect(await c.publicClient.readContract({ ...read, functionName: 'decimals' })).toBe(18);

    const dep = await mined(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'deposit',
        value: parseEther('2'),
      }),
    );
    const [deposit] = parseEventLogs({ abi: read.abi, logs: dep.logs, eventName: 'Deposit' });
    expect(deposit?.args).toEqual({ dst: user.address, wad: parseEther('2') });
    // Plain transfer goes through receive() and deposits too.
    await mined(
      c.walletClient.sendTransaction({ account: user, to: weth, value: parseEther('1') }),
    );
    const balance = () =>
      c.publicClient.readContract({ ...read, functionName: 'balanceOf', args: [user.address] });
    expect(await balance()).toBe(parseEther('3'));
    expect(await c.publicClient.readContract({ ...read, functionName: 'totalSupply' })).toBe(
      parseEther('3'),
    );

    const before = await c.publicClient.getBalance({ address: user.address });
    const wd = await mined(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'withdraw',
        args: [parseEther('1.5')],
      }),
    );
    const [withdrawal] = parseEventLogs({ abi: read.abi, logs: wd.logs, eventName: 'Withdrawal' });
    expect(withdrawal?.args).toEqual({ src: user.address, wad: parseEther('1.5') });
    const after = await c.publicClient.getBalance({ address: user.address });
    expect(after - before).toBe(parseEther('1.5') - wd.gasUsed * wd.effectiveGasPrice);
    expect(await balance()).toBe(parseEther('1.5'));
    expect(await c.publicClient.getBalance({ address: weth })).toBe(parseEther('1.5'));
    await expectRevert(
      c.walletClient.writeContract({
        ...read,
        account: user,
        functionName: 'withdraw',
        args: [parseEther('2')],
      }),
      read.abi,
      'InsufficientBalance',
    );
  });

  it('Depository: tagged native and ERC20 deposits, owner-only transferOut', async () => {
    const usdc = await deployStablecoin();
    const depository = await deployed(
      c.walletClient.deployContract({
        abi: depositoryArtifact.abi,
        bytecode: depositoryArtifact.bytecode,
        args: [owner.address],
      }),
    );
    const dep = { address: depository, abi: depositoryArtifact.abi } as const;
    const id = requestId('depository-native');
    const depositor = freshAddress('depositor');

    const nativeReceipt = await mined(
      c.walletClient.writeContract({
        ...dep,
        account: user,
        functionName: 'depositNative',
        args: [depositor, id],
        value: parseEther('0.5'),
      }),
    );
    const [nativeDeposit] = parseEventLogs({
      abi: dep.abi,
      logs: nativeReceipt.logs,
      eventName: 'Deposit',
    });
    expect(nativeDeposit?.args).toEqual({ id, depositor, token: ZERO, amount: parseEther('0.5') });
    expect(await c.publicClient.getBalance({ address: depository })).toBe(parseEther('0.5'));
    await expectRevert(
      c.walletClient.writeContract({
        ...dep,
        account: user,
        functionName: 'depositNative',
        args: [depositor, id],
        value: 0n,
      }),
      dep.abi,
      'ZeroAmount',
    );
    // Untagged native transfers are rejected.
    await expectRevert(
      c.walletClient.sendTransaction({ account: user, to: depository, value: 1n }),
      dep.abi,
      'UntaggedDeposit',
    );

    const erc20Id = requestId('depository-erc20');
    await mint(usdc, user.address, 5_000_000n);
    await mined(
      c.walletClient.writeContract({
        address: usdc,
        abi: stablecoinArtifact.abi,
        account: user,
        functionName: 'approve',
        args: [depository, 5_000_000n],
      }),
    );
    await expectRevert(
      c.walletClient.writeContract({
        ...dep,
        account: user,
        functionName: 'depositErc20',
        args: [user.address, usdc, 0n, erc20Id],
      }),
      dep.abi,
      'ZeroAmount',
    );
    const erc20Receipt = await mined(
      c.walletClient.writeContract({
        ...dep,
        account: user,
        functionName: 'depositErc20',
        args: [user.address, usdc, 3_000_000n, erc20Id],
      }),
    );
    const [erc20Deposit] = parseEventLogs({
      abi: dep.abi,
      logs: erc20Receipt.logs,
      eventName: 'Deposit',
    });
    expect(erc20Deposit?.args).toEqual({
      id: erc20Id,
      depositor: user.address,
      token: usdc,
      amount: 3_000_000n,
    });
    expect(await balanceOf(usdc, depository)).toBe(3_000_000n);
    expect(await balanceOf(usdc, user.address)).toBe(2_000_000n);
    // Pulling more than the allowance left bubbles up the token's error.
    await expectRevert(
      c.walletClient.writeContract({
        ...dep,
        account: user,
        functionName: 'depositErc20',
        args: [user.address, usdc, 2_000_001n, erc20Id],
      }),
      [...dep.abi, ...stablecoinArtifact.abi],
      'InsufficientAllowance',
    );

    // transferOut: owner only, native and ERC20.
    const refundTo = freshAddress('refund-recipient');
    await expectRevert(
      c.walletClient.writeContract({
        ...dep,
        account: user,
        functionName: 'transferOut',
        args: [id, ZERO, user.address, parseEther('0.5')],
      }),
      dep.abi,
      'NotOwner',
    );
    await expectRevert(
      c.walletClient.writeContract({
        ...dep,
        account: user,
        functionName: 'transferOut',
        args: [erc20Id, usdc, user.address, 1n],
      }),
      dep.abi,
      'NotOwner',
    );
    const outNative = await mined(
      c.walletClient.writeContract({
        ...dep,
        functionName: 'transferOut',
        args: [id, ZERO, refundTo, parseEther('0.2')],
      }),
    );
    const [outEvent] = parseEventLogs({
      abi: dep.abi,
      logs: outNative.logs,
      eventName: 'TransferOut',
    });
    expect(outEvent?.args).toEqual({ id, token: ZERO, to: refundTo, amount: parseEther('0.2') });
    expect(await c.publicClient.getBalance({ address: refundTo })).toBe(parseEther('0.2'));
    expect(await c.publicClient.getBalance({ address: depository })).toBe(parseEther('0.3'));

    const outErc20 = await mined(
      c.walletClient.writeContract({
        ...dep,
        functionName: 'transferOut',
        args: [erc20Id, usdc, refundTo, 3_000_000n],
      }),
    );
    const [outErc20Event] = parseEventLogs({
      abi: dep.abi,
      logs: outErc20.logs,
      eventName: 'TransferOut',
    });
    expect(outErc20Event?.args).toEqual({
      id: erc20Id,
      token: usdc,
      to: refundTo,
      amount: 3_000_000n,
    });
    expect(await balanceOf(usdc, refundTo)).toBe(3_000_000n);
    expect(await balanceOf(usdc, depository)).toBe(0n);
  });

  it('ServiceReceiver: fills pay the recipient once per id; forward pays the solver', async () => {
    const usdc = await deployStablecoin();
    const solverAddress = freshAddress('receiver-solver');
    const receiver = await deployed(
      c.walletClient.deployContract({
        abi: serviceReceiverArtifact.abi,
        bytecode: serviceReceiverArtifact.bytecode,
        args: [solverAddress],
      }),
    );
    const rcv = { address: receiver, abi: serviceReceiverArtifact.abi } as const;
    expect(await c.publicClient.readContract({ ...rcv, functionName: 'solver' })).toBe(
      solverAddress,
    );

    // Native fill.
    const nativeId = requestId('fill-native');
    const recipient = freshAddress('fill-recipient');
    expect(
      await c.publicClient.readContract({ ...rcv, functionName: 'filled', args: [nativeId] }),
    ).toBe(false);
    const nativeFill = await mined(
      c.walletClient.writeContract({
        ...rcv,
        functionName: 'fillNative',
        args: [nativeId, recipient],
        value: parseEther('0.25'),
      }),
    );
    const [fill] = parseEventLogs({ abi: rcv.abi, logs: nativeFill.logs, eventName: 'Fill' });
    expect(fill?.args).toEqual({
      id: nativeId,
      token: ZERO,
      recipient,
      amount: parseEther('0.25'),
      solver: owner.address,
    });
    expect(await c.publicClient.getBalance({ address: recipient })).toBe(parseEther('0.25'));
    expect(await c.publicClient.getBalance({ address: receiver })).toBe(0n);
    expect(
      await c.publicClient.readContract({ ...rcv, functionName: 'filled', args: [nativeId] }),
    ).toBe(true);
    await expectRevert(
      c.walletClient.writeContract({
        ...rcv,
        functionName: 'fillNative',
        args: [nativeId, recipient],
        value: parseEther('0.25'),
      }),
      rcv.abi,
      'AlreadyFilled',
      [nativeId],
    );

    // ERC20 fill (solver approves the receiver, which pulls straight to the recipient).
    await mint(usdc, owner.address, 10_000_000n);
    await mined(
      c.walletClient.writeContract({
        address: usdc,
        abi: stablecoinArtifact.abi,
        functionName: 'approve',
        args: [receiver, 2n ** 256n - 1n],
      }),
    );
    const erc20Id = requestId('fill-erc20');
    const erc20Fill = await mined(
      c.walletClient.writeContract({
        ...rcv,
        functionName: 'fillErc20',
        args: [erc20Id, usdc, recipient, 4_000_000n],
      }),
    );
    const [fill2] = parseEventLogs({ abi: rcv.abi, logs: erc20Fill.logs, eventName: 'Fill' });
    expect(fill2?.args).toEqual({
      id: erc20Id,
      token: usdc,
      recipient,
      amount: 4_000_000n,
      solver: owner.address,
    });
    expect(await balanceOf(usdc, recipient)).toBe(4_000_000n);
    expect(await balanceOf(usdc, owner.address)).toBe(6_000_000n);
    await expectRevert(
      c.walletClient.writeContract({
        ...rcv,
        functionName: 'fillErc20',
        args: [erc20Id, usdc, recipient, 4_000_000n],
      }),
      rcv.abi,
      'AlreadyFilled',
      [erc20Id],
    );
    // The same id cannot be filled through the other function either.
    await expectRevert(
      c.walletClient.writeContract({
        ...rcv,
        functionName: 'fillNative',
        args: [erc20Id, recipient],
        value: 1n,
      }),
      rcv.abi,
      'AlreadyFilled',
      [erc20Id],
    );

    // A fill to a blocked recipient reverts with the token's error and leaves the id unfilled.
    const blockedId = requestId('fill-blocked');
    const blocked = freshAddress('blocked-recipient');
    await mined(
      c.walletClient.writeContract({
        address: usdc,
        abi: stablecoinArtifact.abi,
        functionName: 'setBlocked',
        args: [blocked, true],
      }),
    );
    await expectRevert(
      c.walletClient.writeContract({
        ...rcv,
        functionName: 'fillErc20',
        args: [blockedId, usdc, blocked, 1n],
      }),
      [...rcv.abi, ...stablecoinArtifact.abi],
      'AccountBlocked',
      [blocked],
    );
    expect(
      await c.publicClient.readContract({ ...rcv, functionName: 'filled', args: [blockedId] }),
    ).toBe(false);

    // forward: value goes to the solver, data is emitted.
    await c.testClient.setBalance({ address: solverAddress, value: 0n });
    const data: Hex = '0x1234abcd';
    const fwd = await mined(
      c.walletClient.writeContract({
        ...rcv,
        account: user,
        functionName: 'forward',
        args: [data],
        value: parseEther('0.1'),
      }),
    );
    const [forwarded] = parseEventLogs({
      abi: rcv.abi,
      logs: fwd.logs,
      eventName: 'FundsForwardedWithData',
    });
    expect(forwarded?.args).toEqual({ data });
    expect(await c.publicClient.getBalance({ address: solverAddress })).toBe(parseEther('0.1'));
    expect(await c.publicClient.getBalance({ address: receiver })).toBe(0n);
  });

  it('Multicall3: aggregate3 returns balances and works with viem multicall', async () => {
    const usdc = await deployStablecoin();
    const multicall = await deployed(
      c.walletClient.deployContract({
        abi: multicall3Artifact.abi,
        bytecode: multicall3Artifact.bytecode,
      }),
    );
    const holder = freshAddress('multicall-holder');
    await mint(usdc, holder, 123_456n);
    await c.testClient.setBalance({ address: holder, value: parseEther('7') });

    const { result } = await c.publicClient.simulateContract({
      address: multicall,
      abi: multicall3Artifact.abi,
      functionName: 'aggregate3',
      args: [
        [
          {
            target: usdc,
            allowFailure: false,
            callData: encodeFunctionData({
              abi: stablecoinArtifact.abi,
              functionName: 'balanceOf',
              args: [holder],
            }),
          },
          {
            target: multicall,
            allowFailure: false,
            callData: encodeFunctionData({
              abi: multicall3Artifact.abi,
              functionName: 'getEthBalance',
              args: [holder],
            }),
          },
          { target: usdc, allowFailure: true, callData: '0xdeadbeef' },
        ],
      ],
    });
    expect(result).toHaveLength(3);
    const [tokenResult, ethResult, failed] = result;
    expect(tokenResult?.success).toBe(true);
    expect(
      decodeFunctionResult({
        abi: stablecoinArtifact.abi,
        functionName: 'balanceOf',
        data: tokenResult?.returnData ?? '0x',
      }),
    ).toBe(123_456n);
    expect(ethResult?.success).toBe(true);
    expect(
      decodeFunctionResult({
        abi: multicall3Artifact.abi,
        functionName: 'getEthBalance',
        data: ethResult?.returnData ?? '0x',
      }),
    ).toBe(parseEther('7'));
    expect(failed?.success).toBe(false);

    // A failing call that may not fail reverts the whole batch with the canonical message.
    await expectRevert(
      c.publicClient.simulateContract({
        address: multicall,
        abi: multicall3Artifact.abi,
        functionName: 'aggregate3',
        args: [[{ target: usdc, allowFailure: false, callData: '0xdeadbeef' }]],
      }),
      multicall3Artifact.abi,
      'Error',
      ['Multicall3: call failed'],
    );

    // viem's own multicall batching against this deployment.
    const [balance, chainId] = await c.publicClient.multicall({
      multicallAddress: multicall,
      allowFailure: false,
      contracts: [
        {
          address: usdc,
          abi: stablecoinArtifact.abi,
          functionName: 'balanceOf',
          args: [holder],
        },
        { address: multicall, abi: multicall3Artifact.abi, functionName: 'getChainId' },
      ],
    });
    expect(balance).toBe(123_456n);
    expect(chainId).toBe(31337n);
  });
});
