// The HTTP stack's own speed: a raw node:http server on 127.0.0.1 port 0 answering each request with a
// Buffer made once at start from pages read from a file ({ "/path?query": page, ... }); no work per
// request but writing it. Prints `listening on http://127.0.0.1:PORT`; stops on SIGTERM.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const pages = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([k, v]) => [k, Buffer.from(JSON.stringify(v))]),
);
const server = createServer((req, res) => {
  const page = pages.get(req.url);
  if (page === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': page.length });
  res.end(page);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
