import type { RevertDetails } from '../../domain/execute/simulationFailure';
import { revertLabel, type DecodedRevert } from './decodedRevert';

/** A decoded revert in the service's words for `/execute` simulation errors (SPEC §7.1 `details.revert`). */
export function revertDetails(revert: DecodedRevert): RevertDetails {
  const label = revertLabel(revert);
  const selector = revert.data.length >= 10 ? revert.data.slice(0, 10) : undefined;
  const rawArgsHex = revert.data.length > 10 ? `0x${revert.data.slice(10)}` : undefined;
  switch (revert.kind) {
    case 'customError':
      return { type: 'customError', label, message: `reverted with ${label}`, ...(selector ? { selector } : {}), name: revert.errorName, args: revert.args, ...(rawArgsHex ? { rawArgsHex } : {}) };
    case 'reasonString':
      return { type: 'errorString', label, message: revert.reason, ...(selector ? { selector } : {}) };
    case 'panic':
      return { type: 'panic', label, message: `panicked: ${label}`, ...(selector ? { selector } : {}) };
    case 'undecoded':
      return { type: 'unknownCustomError', label, message: `reverted with an error no known ABI names (${selector ?? revert.data})`, ...(selector ? { selector } : {}), ...(rawArgsHex ? { rawArgsHex } : {}) };
    case 'noData':
      return { type: 'empty', label, message: 'reverted without revert data' };
  }
}
