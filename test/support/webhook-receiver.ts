import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** One request exactly as it reached the receiver. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Header names in the order and spelling they arrived (lowercased by Node), duplicates kept. */
  headerNames: string[];
  /** The raw body, byte for byte (UTF-8). */
  body: string;
  /** Wall-clock arrival time (ms). */
  at: number;
}

/** How the receiver answers one request. */
export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before sending the status line. */
  delayMs?: number;
  /** Send the status at once, then the body in `chunks` pieces, `intervalMs` apart. */
  slowBody?: { chunks: number; intervalMs: number };
  /** Destroy the connection without answering (connection reset). */
  reset?: boolean;
  /** Hold the answer until this promise settles (a gate the test opens). */
  until?: Promise<unknown>;
}

export type Script = (request: ReceivedRequest, index: number) => Answer;

export interface WebhookReceiver {
  /** `http://localhost:<port>`: the form ACCOUNTING_WEBHOOK_ALLOW_LOCALHOST accepts. */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests received and not yet answered (or reset), now and at most so far. */
  open(): { now: number; max: number };
  /** Replaces the answer script (default: 200 "ok"). */
  answer(script: Script | Answer): void;
  /** Resolves with the first request (received or still to come) matching; rejects after timeoutMs. */
  waitFor(predicate: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on a random loopback port that records every request and answers as scripted:
 * any status (3xx with a Location, 410...), a delay, a body trickled slowly, or a reset connection.
 */
export async function startWebhookReceiver(
  initial: Script | Answer = { status: 200 },
): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let script: Script = typeof initial === 'function' ? initial : () => initial;
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  let openNow = 0;
  let openMax = 0;
  const server: Server = createServer((req, res) => {
    openNow += 1;
    openMax = Math.max(openMax, openNow);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      openNow -= 1;
    };
    res.on('finish', close);
    res.on('close', close);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        headerNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = requests.length;
      requests.push(received);
      for (const wake of [...waiters]) wake();
      const answer = script(received, index);
      const respond = () => {
        if (answer.reset) {
          req.socket.destroy();
          return;
        }
        const body = answer.body ?? 'ok';
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        const slow = answer.slowBody;
        if (!slow) {
          res.end(body);
          return;
        }
        const size = Math.ceil(body.length / slow.chunks) || 1;
        let sent = 0;
        const next = () => {
          if (res.destroyed) return;
          if (sent >= body.length) {
            res.end();
            return;
          }
          res.write(body.slice(sent, sent + size));
          sent += size;
          later(slow.intervalMs, next);
        };
        next();
      };
      const go = () => (answer.delayMs ? later(answer.delayMs, respond) : respond());
      if (answer.until) answer.until.finally(go);
      else go();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver has no TCP address');
  const { port } = address;

  return {
    url: `http://localhost:${port}`,
    port,
    requests,
    open: () => ({ now: openNow, max: openMax }),
    answer(next) {
      script = typeof next === 'function' ? next : () => next;
    },
    waitFor(predicate, timeoutMs = 5_000) {
      const found = requests.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const match = requests.find(predicate);
          if (!match) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(match);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(`no matching webhook request within ${timeoutMs} ms (${requests.length} received)`),
          );
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port with nothing listening (connections are refused). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}
