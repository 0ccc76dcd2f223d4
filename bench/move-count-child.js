// One run of bench/move-count.js, under valgrind: the library's one-thread marketplace of the build in ROOT, LISTINGS
// listings from a fixed start, moved 1 h (the start's idle work settled), then SPAN ('0': not moved, the run the move
// is counted against), then closed. Arguments: ROOT LISTINGS SPAN.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, listings, span] = process.argv.slice(2);
const { createMarketplace } = await import(pathToFileURL(join(root, 'dist', 'mock-server', 'library', 'index.js')).href);
const market = createMarketplace({ listings: Number(listings), start: '2026-06-01T12:00:00Z' });
await market.clock.advance('1h');
if (span !== '0') await market.clock.advance(span);
await market.close();
