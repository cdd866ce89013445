// A one-time page where a person answers one prompt that hides what is typed (a password):
// the page shows the prompt and a single password field; Enter submits it; what was typed is
// handed to `deliver` (the program's terminal) and goes nowhere else: not logged, not kept,
// not shown on the view. The URL carries a ticket of its own (not the view's token), so
// whoever gets it can answer that prompt once and do nothing else.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidOption, nonEmptyString } from '@procmux/core-types';

/** What a one-time secret page asks, and where the answer goes. */
export interface SecretRequest {
  /** The prompt the program printed (`Password: `), shown above the field. */
  prompt: string;
  /** What the page says the prompt belongs to (`session 3f2a…: sudo apt update`). */
  label: string;
  /** Receives what the person typed (without the Enter); nothing else ever sees it. */
  deliver(secret: string): Promise<void>;
}

/** One offered page: its URL, its answer, and how to withdraw it. */
export interface SecretTicket {
  /** `http://127.0.0.1:PORT/secret/<ticket>`: valid once, until answered or cancelled. */
  readonly url: string;
  /** Resolves once the person's answer was delivered; never rejects. */
  readonly answered: Promise<void>;
  /** Withdraws the page (the program stopped waiting); an answer after this is refused. */
  cancel(): void;
}

/** The longest answer a page takes (a password or a passphrase, not a file). */
export const MAX_SECRET_BYTES = 4096;

const HEADERS = {
  'cache-control': 'no-store',
  // Not no-referrer: with it a browser sends `Origin: null` on the form's POST, which the
  // Origin check must refuse; the ticket in the path still never leaves this origin.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // No script at all: a form with one field submits on Enter by itself.
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

interface Pending {
  request: SecretRequest;
  resolve: () => void;
}

/** The open tickets of one view server, and the HTTP side of their pages. */
export class SecretPages {
  readonly #pending = new Map<string, Pending>();

  /** Offers a page for `request` under `origin` (`http://127.0.0.1:PORT`). */
  offer(origin: string, request: SecretRequest): SecretTicket {
    nonEmptyString('label', request.label);
    if (typeof request.prompt !== 'string')
      throw invalidOption('prompt', 'a string', { value: request.prompt });
    if (typeof request.deliver !== 'function') throw invalidOption('deliver', 'a function');
    const ticket = randomBytes(32).toString('base64url');
    let resolve!: () => void;
    const answered = new Promise<void>((r) => {
      resolve = r;
    });
    this.#pending.set(ticket, { request, resolve });
    return {
      url: `${origin}/secret/${ticket}`,
      answered,
      cancel: () => {
        this.#pending.delete(ticket);
      },
    };
  }

  /** Handles /secret/<ticket> (true), or leaves the request to the view (false). */
  handle(request: IncomingMessage, response: ServerResponse, path: string): boolean {
    if (!path.startsWith('/secret/')) return false;
    const match = /^\/secret\/([A-Za-z0-9_-]{43})$/.exec(path);
    const ticket = match ? this.#find(match[1]!) : undefined;
    if (!ticket) {
      page(response, 410, 'This link was used already, or the program no longer waits for it.');
      return true;
    }
    const [key, pending] = ticket;
    if (request.method === 'GET' || request.method === 'HEAD') {
      page(response, 200, undefined, pending.request);
      return true;
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { ...HEADERS, allow: 'GET, POST' }).end();
      return true;
    }
    const type = request.headers['content-type'] ?? '';
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      page(response, 415, 'The answer must come from the form of this page.');
      return true;
    }
    readBody(request, MAX_SECRET_BYTES * 4)
      .then(async (body) => {
        const secret = body === undefined ? undefined : new URLSearchParams(body).get('secret');
        if (secret === undefined || secret === null || Buffer.byteLength(secret) > MAX_SECRET_BYTES) {
          page(response, 413, `The answer must be at most ${MAX_SECRET_BYTES} bytes.`);
          return;
        }
        // Single use: gone before it is delivered, so a second submit cannot answer twice.
        if (!this.#pending.delete(key)) {
          page(response, 410, 'This link was used already, or the program no longer waits for it.');
          return;
        }
        await pending.request.deliver(secret);
        pending.resolve();
        page(response, 200, 'Sent to the program. You can close this tab.');
      })
      .catch(() => page(response, 500, 'The answer could not be sent to the program.'));
    return true;
  }

  /** Withdraws every open page (the view closes). */
  close(): void {
    this.#pending.clear();
  }

  #find(given: string): [string, Pending] | undefined {
    for (const entry of this.#pending) {
      const a = Buffer.from(given);
      const b = Buffer.from(entry[0]);
      if (a.length === b.length && timingSafeEqual(a, b)) return entry;
    }
    return undefined;
  }
}

function readBody(request: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(undefined);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function page(response: ServerResponse, status: number, message?: string, ask?: SecretRequest): void {
  const body = ask
    ? `<p class="label">${escapeHtml(ask.label)}</p>
<form method="post" autocomplete="off">
<label for="secret"><pre>${escapeHtml(ask.prompt.trimEnd() || 'The program waits for input it does not show.')}</pre></label>
<input id="secret" name="secret" type="password" autofocus autocomplete="off" spellcheck="false">
<p class="hint">Press Enter to send it to the program. It goes to the program only: procmux does not show, log or keep it.</p>
</form>`
    : `<p>${escapeHtml(message ?? '')}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>procmux: a program asks for input</title>
<style>body{font:15px system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em}
pre{font:15px ui-monospace,monospace;white-space:pre-wrap;margin:0 0 .5em}
input{font:15px ui-monospace,monospace;width:100%;padding:.4em}.label,.hint{color:#555}</style>
</head><body>
${body}
</body></html>`;
  response.writeHead(status, { ...HEADERS, 'content-type': 'text/html; charset=utf-8' });
  response.end(html);
}
