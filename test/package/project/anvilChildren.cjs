// The anvil processes this process started (the test checks they are gone once it has exited).
const { execFileSync } = require('node:child_process');

module.exports = function anvilChildren() {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-x', 'anvil'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};
