// json-server as a peer of the mock (bench/peers.js), built with its module API as its README shows: create(),
// defaults() (compression, CORS, static files, no-cache headers; no logger, as the CLI's --quiet), rewriter()
// and router() over a db holding each page as a singular resource, routed from the page's path and query
// (bench/peers-lib.js jsonServerLayout). One change from create(): Express's `json spaces` is 0 instead of 2,
// so it answers the mock's bytes rather than the same JSON pretty-printed.
// argv: the folder whose node_modules holds json-server, the pages file ({ "/path?query": page, ... }).
// Prints `listening on http://127.0.0.1:PORT`; stops on SIGTERM.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { jsonServerLayout } from './peers-lib.js';

const [dir, pagesFile] = process.argv.slice(2);
const jsonServer = createRequire(join(dir, 'package.json'))('json-server');
const pages = Object.entries(JSON.parse(readFileSync(pagesFile, 'utf8'))).map(([path, page]) => ({ path, page }));
const { db, routes } = jsonServerLayout(pages);

const app = jsonServer.create().set('json spaces', 0);
app.use(jsonServer.defaults({ logger: false }));
app.use(jsonServer.rewriter(routes));
app.use(jsonServer.router(db));
const server = app.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
