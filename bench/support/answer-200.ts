// The throughput benchmark's receiver, run as its own process (bench/webhook-delivery.ts): answers
// every request 200 "ok" over kept-alive connections and does nothing else, so the measured
// process's CPU time is the delivery worker's, not a receiver's (with the receiver in the same
// process, its request parsing was a sixth of the measured CPU). Prints its port, then reports the
// requests it answered when it receives "count" on stdin.
import { createServer } from 'node:http';

let answered = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    answered += 1;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  process.stdout.write(`${address.port}\n`);
});
process.stdin.setEncoding('utf8').on('data', (line: string) => {
  if (line.includes('count')) process.stdout.write(`answered ${answered}\n`);
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
