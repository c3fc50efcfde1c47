import { describe, expect, it } from 'vitest';
import { concat, encodeAbiParameters, encodeErrorResult, getAddress, parseAbi, type Hex } from 'viem';
import { editionMint1155Artifact, minimalEntryPointArtifact, serviceReceiverArtifact } from '../../../fixtures/contracts/artifacts.generated';
import { decodeRevertData, decodeRevertFacts } from '../../../src/chains/evm/decodeRevert';

const errorString = (reason: string): Hex => concat(['0x08c379a0', encodeAbiParameters([{ type: 'string' }], [reason])]);
const panic = (code: bigint): Hex => concat(['0x4e487b71', encodeAbiParameters([{ type: 'uint256' }], [code])]);

describe('decodeRevertFacts: revert data against the known ABIs', () => {
  it('a fixture contract’s custom error, with its arguments', () => {
    const data = encodeErrorResult({ abi: editionMint1155Artifact.abi, errorName: 'IncorrectPayment', args: [1n, 2n] });
    expect(decodeRevertFacts(data)).toEqual({ kind: 'customError', errorName: 'IncorrectPayment', args: ['1', '2'], data });
  });

  it('the entry point’s FailedOp keeps its reason string among the arguments', () => {
    const data = encodeErrorResult({ abi: minimalEntryPointArtifact.abi, errorName: 'FailedOp', args: [0n, 'AA25 invalid account nonce'] });
    expect(decodeRevertFacts(data)).toMatchObject({ kind: 'customError', errorName: 'FailedOp', args: ['0', 'AA25 invalid account nonce'] });
  });

  it('an OpenZeppelin v5 error no fixture declares (EnforcedPause is one; SafeERC20FailedOperation is not)', () => {
    const token = getAddress('0x00000000000000000000000000000000000000aa');
    const data = encodeErrorResult({ abi: parseAbi(['error SafeERC20FailedOperation(address token)']), errorName: 'SafeERC20FailedOperation', args: [token] });
    expect(decodeRevertFacts(data)).toMatchObject({ kind: 'customError', errorName: 'SafeERC20FailedOperation', args: [token] });
  });

  it('Error(string), Panic(uint256), unknown data and no data', () => {
    expect(decodeRevertFacts(errorString('Pausable: paused'))).toMatchObject({ kind: 'reasonString', reason: 'Pausable: paused' });
    expect(decodeRevertFacts(panic(0x11n))).toMatchObject({ kind: 'panic', code: 0x11 });
    expect(decodeRevertFacts('0xdeadbeef')).toEqual({ kind: 'undecoded', data: '0xdeadbeef' });
    expect(decodeRevertFacts('0x')).toEqual({ kind: 'noData', data: '0x' });
    expect(decodeRevertFacts(undefined)).toEqual({ kind: 'noData', data: '0x' });
  });
});

describe('decodeRevertData: a failed simulation', () => {
  it('names the error, reads it in one line, and keeps the simulator’s blocked-account fact', () => {
    const blocked = getAddress('0x00000000000000000000000000000000000b10cc');
    const data = encodeErrorResult({ abi: parseAbi(['error AccountBlocked(address account)']), errorName: 'AccountBlocked', args: [blocked] });
    expect(decodeRevertData(data)).toMatchObject({ ok: false, failure: { errorName: 'AccountBlocked', message: `AccountBlocked(${blocked})`, failReason: 'DESTINATION_TOKEN_TRANSFER_REJECTED' }, blockedAccount: blocked });
    const tooLittle = encodeErrorResult({ abi: serviceReceiverArtifact.abi, errorName: 'TooLittleReceived', args: [1n, 2n] });
    expect(decodeRevertData(tooLittle)).toMatchObject({ failure: { errorName: 'TooLittleReceived', message: 'TooLittleReceived(1, 2)' } });
    expect(decodeRevertData(errorString('DexRouter: EXPIRED'))).toMatchObject({ failure: { errorName: 'Error', message: 'Error("DexRouter: EXPIRED")' } });
    // the details status shows: the decoded revert and its label
    expect(decodeRevertData(undefined)).toMatchObject({ failure: { errorName: 'Reverted', message: 'no revert data', failReason: 'MISSING_REVERT_DATA', details: { kind: 'noData', data: '0x', label: 'no revert data' } } });
  });
});
