import net from 'node:net';

export interface PartialAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface PartialRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** What the head announces as Content-Length; omitted: the body is sent chunked. */
  contentLength?: number;
  /** How many body bytes are actually written (then the client waits, never finishing). */
  send: number;
}

/**
 * Sends a request head and only part of its body, then waits for the answer without ever sending
 * the rest. An answer therefore proves the server decided before reading the body to its end; a
 * server that buffers the whole body first never answers (the guard ends the wait, and the test
 * fails on the missing answer, not on a duration).
 */
export function partialRequest(baseUrl: string, request: PartialRequest): Promise<PartialAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${request.path} while its body was still unfinished`));
    }, 60_000);
    const finish = (answer: PartialAnswer) => {
      clearTimeout(guard);
      socket.destroy();
      resolve(answer);
    };
    socket.on('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      const body = received.subarray(end + 4);
      if (body.length < length) return;
      finish({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: body.subarray(0, length).toString('utf8'),
      });
    });
    const chunked = request.contentLength === undefined;
    const head = [
      `${request.method ?? 'POST'} ${request.path} HTTP/1.1`,
      `Host: ${url.host}`,
      ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
      chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${request.contentLength}`,
      '',
      '',
    ].join('\r\n');
    socket.write(head);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = (): void => {
      while (sent < request.send) {
        const part = piece.subarray(0, Math.min(piece.length, request.send - sent));
        sent += part.length;
        const ok = chunked
          ? socket.write(
              Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]),
            )
          : socket.write(part);
        if (!ok) {
          socket.once('drain', write);
          return;
        }
      }
    };
    write();
  });
}
