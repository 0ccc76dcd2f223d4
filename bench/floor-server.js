// The floor a search is measured against: a raw node:http server that answers every request with
// JSON.stringify of one fixed page (read from the file named by argv[2]). Prints its URL when listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const page = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const server = createServer((_req, res) => {
  const body = JSON.stringify(page);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
