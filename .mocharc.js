// The unit suite. A test file named on the command line (`npx mocha test/unit/x.test.ts`) runs
// alone: mocha adds named files to the configured spec rather than replacing it, which would run
// the whole suite for one file.
const named = process.argv.slice(2).some((arg) => /\.test\.ts$/.test(arg));

module.exports = {
  require: ['tsx/cjs'],
  spec: named ? [] : ['test/unit/**/*.test.ts'],
  timeout: 20000,
  reporter: 'spec',
};
