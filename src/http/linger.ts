import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** After an early answer, at most this long and this much is read and thrown away before closing. */
const LINGER_MS = 30_000;
/** A client that has sent nothing for this long has finished (or stalled): close then. */
const LINGER_IDLE_MS = 2_000;
const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * A request answered before its body has arrived (413 on a 20 MB upload, 404, 401 ...) must still
 * be read to the end: Fastify stops reading and asks for `Connection: close`, Node then destroys
 * the socket, and the rest of the body arriving on a closed socket makes the kernel reset the
 * connection, so a client still writing gets EPIPE instead of the answer. Like nginx's lingering
 * close: keep discarding what arrives (bounded in time and bytes), close only after the client
 * has finished sending or gone, never while it is still writing.
 */
export function registerLingeringClose(app: FastifyInstance): void {
  const lingering = new Set<Socket>();
  // Shutting down is no time to linger: the timers below are unref'd, so a server.close() that
  // waited for a lingering socket whose client keeps its connection open would never finish.
  app.addHook('preClose', async () => {
    for (const socket of lingering) socket.destroy();
    lingering.clear();
  });
  // Callback-style: it runs for every response, and an async hook costs a promise each time.
  app.addHook('onSend', (request, _reply, payload, done) => {
    const raw = request.raw;
    // `complete` is a boolean on a real socket's request; Fastify's inject has no socket to linger on.
    if (raw.complete !== false) {
      done(null, payload);
      return;
    }
    // Fastify may have stopped reading halfway (its size check); discard the rest.
    raw.resume();
    const socket = raw.socket;
    if (lingering.has(socket)) {
      done(null, payload);
      return;
    }
    lingering.add(socket);
    socket.once('close', () => lingering.delete(socket));
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      // Our answer is written: half-close (the client reads it and sees the end), keep reading.
      socket.end();
      let received = 0;
      const finish = () => {
        clearTimeout(timer);
        socket.destroy();
      };
      const timer = setTimeout(finish, LINGER_MS);
      timer.unref();
      socket.setTimeout(LINGER_IDLE_MS, finish);
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > LINGER_BYTES) finish();
      });
      socket.once('end', finish);
      socket.once('close', () => clearTimeout(timer));
      raw.once('end', () => destroySoon());
      socket.resume();
    };
    done(null, payload);
  });
}
