// require() of published packages from CommonJS (Node >= 20.19 loads their ESM).
const assert = require('node:assert/strict');

const expected = {
  '@procmux/sessions': 'createProcessSessions',
  '@procmux/supervisor': 'ProcessSupervisor',
  '@procmux/core-types': 'ProcmuxError',
  '@procmux/tools': 'createProcessTools',
  '@procmux/mcp': 'runDemo',
};
for (const name of process.argv.slice(2)) {
  const loaded = require(name);
  assert.equal(typeof loaded[expected[name]], 'function', `${name} exports ${expected[name]}()`);
  console.log(`require('${name}').${expected[name]}: ok`);
}
