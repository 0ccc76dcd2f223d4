// A build of the real protocol (scripts/build-swap.mjs) with steps that cost nothing, for
// test/build-swap-interleavings.test.ts: `node fake-build.mjs ROOT FILES [--hang]` stages a build whose FILES
// bundle files, help/BUILD and a source map each name it (its tag), yielding to the event loop between files so
// that builds run side by side interleave, then publishes it and prints its folder name. `--hang`: prints
// `staged` once the files are written and waits to be killed, before publishing; `--wait`: prints `staged`
// and publishes when a line comes on stdin, so that a test can have several builds publish at once; `--pause`:
// stops between the link and dist/ (publish's pause), printing `paused`, until a line comes on stdin.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { publish, stage } from '../../scripts/build-swap.mjs';

const [root, count, mode] = process.argv.slice(2);
const staged = stage(root);
mkdirSync(join(staged.dist, 'bundle'));
mkdirSync(join(staged.dist, 'help'));
for (let i = 0; i < Number(count); i++) {
  writeFileSync(join(staged.dist, 'bundle', `f${i}.cjs`), staged.tag);
  await turn();
}
// As rolldown writes it for .dist/b-…/dist/bundle: the sources four folders up are the clone's src/.
writeFileSync(join(staged.dist, 'bundle', 'f0.cjs.map'), JSON.stringify({ version: 3, sources: ['../../../../src/a.ts'], mappings: '' }));
writeFileSync(join(staged.dist, 'help', 'BUILD'), staged.tag);
/** The next line on stdin. */
const line = () => new Promise((go) => process.stdin.once('data', go));
if (mode === '--hang') {
  process.stdout.write('staged\n');
  await new Promise(() => setInterval(() => {}, 1000));
}
if (mode === '--wait') {
  process.stdout.write('staged\n');
  await line();
}
const pause = async () => {
  process.stdout.write('paused\n');
  await line();
};
process.stdout.write(`${await publish(root, staged, mode === '--pause' ? pause : undefined)}\n`);
process.stdin.destroy();
