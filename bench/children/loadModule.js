// `node loadModule.js <file>`: requires one module and prints how long the require took. Plain
// JavaScript on purpose: nothing but Node itself is loaded before the module being timed.
const t = performance.now();
require(process.argv[2]);
process.stdout.write(`${JSON.stringify({ requireMs: performance.now() - t })}\n`);
