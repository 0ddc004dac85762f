import assert from 'node:assert/strict';
import type { TestApp } from '../support/app.ts';
import type { TestSmtpServer } from '../support/smtp.ts';

/** A cookie-keeping HTTP client for dashboard pages (no browser): what a browser would send. */
export class PageClient {
  /** Every cookie the server set and did not clear, in the order it first set them. */
  readonly jar = new Map<string, string>();
  constructor(readonly app: TestApp) {}

  /** The Cookie header this client sends (a browser's: every live cookie). */
  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(path: string): Promise<Response> {
    return this.#send(path, { method: 'GET' });
  }

  async post(
    path: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.#send(path, {
      method: 'POST',
      // A browser's form POST names the page's origin.
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.app.baseUrl, ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }

  async #send(path: string, init: RequestInit): Promise<Response> {
    const response = await fetch(`${this.app.baseUrl}${path}`, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
    });
    for (const set of response.headers.getSetCookie()) {
      const pair = set.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /Max-Age=0/i.test(set)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }

  /** Asks for a link by e-mail, reads it from the SMTP peer, confirms it: signed in. */
  async signIn(smtp: TestSmtpServer, email: string): Promise<void> {
    const before = smtp.messages.length;
    const asked = await this.post('/dashboard/sign-in', { email });
    assert.equal(asked.status, 200);
    const message = await smtp.waitFor(
      (m, ..._rest) =>
        smtp.messages.indexOf(m) >= before && m.to !== undefined && JSON.stringify(m.to).includes(email),
    );
    const url = linkIn(message.text ?? '');
    const confirm = await this.get(new URL(url).pathname);
    assert.equal(confirm.status, 200);
    const done = await this.post(new URL(url).pathname, {});
    assert.equal(done.status, 303, await done.text());
    assert.match(this.cookie, /^acct_member=/);
  }

  /** The CSRF token of a page's forms. */
  static csrfOf(page: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(page);
    assert.ok(match?.[1], 'the page has a CSRF field');
    return match[1];
  }
}

export function linkIn(text: string): string {
  const match = /(http:\/\/\S+\/dashboard\/sign-in\/link\/[A-Za-z0-9_-]{43})/.exec(text);
  assert.ok(match?.[1], `a sign-in link in: ${text}`);
  return match[1];
}
