// The floor for the mock's req/s: a raw node:http server on 127.0.0.1 port 0 that answers every
// request with JSON.stringify of pages read once from a file ({ "/path?query": page, ... }).
// Prints `listening on http://127.0.0.1:PORT`; stops on SIGTERM.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const pages = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const server = createServer((req, res) => {
  const page = pages[req.url];
  if (page === undefined) {
    res.writeHead(404).end();
    return;
  }
  const text = JSON.stringify(page);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
