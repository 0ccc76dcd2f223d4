// Commander's live output, for test/cli-help-cache.e2e.test.ts to hold the kept help texts against:
// runs the built main as the bin does, without bin/help-cache.cjs in front of it.
const { main } = await import('../../dist/src/main.js');
process.exitCode = await main(process.argv.slice(2));
