import { timingSafeEqual } from 'node:crypto';

/**
 * Who may talk to the server, decided on a request's headers before anything else is read.
 *
 * - `Host` must name the loopback address or `localhost` with the server's own port: a web
 *   page that rebinds its own DNS name to 127.0.0.1 sends its name there, and is refused.
 * - No `Origin`: every browser sends one with a script's POST (and with a cross-site GET of an
 *   event stream); no MCP client does. So no web page reaches the server, even one served
 *   from the loopback address.
 * - `Authorization: Bearer <token>` with the server's token, compared in constant time.
 *
 * Each refusal says which rule and gets 403 (Host, Origin) or 401 (token); nothing else of
 * the request is read.
 */
export type Refusal = { status: 401 | 403; reason: string };

export function checkRequest(headers: Readonly<Record<string, string | string[] | undefined>>, port: number, token: string): Refusal | undefined {
  const host = one(headers.host);
  if (host === undefined || !isLoopbackHost(host, port)) {
    return { status: 403, reason: `Host ${JSON.stringify(host ?? '')} is not this server's loopback address` };
  }
  if (headers.origin !== undefined) {
    return { status: 403, reason: 'a request with an Origin header (a web page) is refused' };
  }
  const auth = one(headers.authorization);
  if (auth === undefined) {
    return { status: 401, reason: 'no bearer token' };
  }
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
  if (!m || !sameSecret(m[1], token)) {
    return { status: 401, reason: 'wrong bearer token' };
  }
  return undefined;
}

function one(v: string | string[] | undefined): string | undefined {
  // a header sent twice is not one answer
  return Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v;
}

/** `127.0.0.1:PORT` or `localhost:PORT` (any case), and nothing else: the server listens on 127.0.0.1 only. */
export function isLoopbackHost(host: string, port: number): boolean {
  const m = /^(127\.0\.0\.1|localhost):(\d{1,5})$/i.exec(host.trim());
  return !!m && Number(m[2]) === port;
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(token, 'utf8');
  // equal lengths for timingSafeEqual; the length of a wrong token says nothing of the right one
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A token bucket: `perSecond` requests a second, with bursts of as many. `take` says whether
 * one more may go now.
 */
export class RateLimit {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = perSecond;
    this.last = now();
  }

  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) {
      return false;
    }
    this.tokens -= 1;
    return true;
  }
}
