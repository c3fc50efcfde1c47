/** Cuts a stream's chunks into lines (a trailing `\r` dropped); `flush` hands on what is left after the last newline. */
export function splitIntoLines(onLine: (line: string) => void): { push: (chunk: string) => void; flush: () => void } {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        onLine(pending.slice(0, newline).replace(/\r$/, ''));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
    },
    flush() {
      if (pending !== '') onLine(pending);
      pending = '';
    },
  };
}
