/**
 * Which Host a request may name. A page on another site can point a name of its own at 127.0.0.1 (DNS
 * rebinding) and then read the mock as if it were that site; what gives it away is the Host its
 * browser sends. So every request must name a host the mock serves: a loopback name or address
 * (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`), the address it is bound to (every address of
 * this machine for a wildcard bind) and the name `--host` gave, or a name given with `--allow-host`.
 * A foreign one is 421 Misdirected Request; one that cannot be read (or two Host lines) is 400.
 *
 * How a Host is read, once, here: `NAME[:PORT]` or `[IPV6][:PORT]`; the name in any case, with or
 * without one trailing dot; addresses in any spelling WHATWG URL reads (`127.1`, `0x7f.1`,
 * `[0:0::1]`), compared in its canonical form. The port is not compared: a port forward or a proxy
 * in front changes it, a rebinding page cannot change the name. Of an absolute-form target
 * (`GET http://HOST/p`) its authority is the host named, and the Host line is ignored (RFC 9112
 * §3.2.2); a request with no Host (HTTP/1.0) names none and is the bound address's.
 */

/** A Host as read: the canonical name (lower case, no trailing dot; an IPv6 address in brackets) and the port, if any. */
export interface NamedHost {
  name: string;
  port: number | null;
}

/** The answer to a request whose Host is refused. */
export interface HostRefusal {
  status: 400 | 421;
  body: { code: string; message: string };
}

/** A Host's characters: a DNS name or IPv4 text, or an IPv6 address in brackets, then an optional port. */
const HOST_SYNTAX = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{0,5}))?$/;

/** Hosts a checker keeps its verdict on; it starts over when full (clients send the same few). */
const MEMO_HOSTS = 64;
/** A Host longer than this is read afresh each time and never kept. */
const MEMO_HOST_CHARS = 300;

/**
 * Reads a Host value (or an absolute-form target's authority): the named host, or the problem.
 * Never throws.
 */
export function readHost(text: string): NamedHost | { problem: string } {
  const shown = JSON.stringify(text.slice(0, 100));
  const m = HOST_SYNTAX.exec(text);
  if (!m) return { problem: `host: ${shown} is not a host name or address with an optional port` };
  const port = m[2] === undefined || m[2] === '' ? null : Number(m[2]);
  if (port !== null && port > 65_535) return { problem: `host: ${shown} has a port past 65535` };
  const name = canonicalName(m[1]!);
  if (name === null) return { problem: `host: ${shown} is not a host name or address with an optional port` };
  return { name, port };
}

/**
 * A host name as WHATWG URL writes it (lower case, IPv4 in dotted decimal, IPv6 compressed in brackets),
 * without a trailing dot; null when it cannot be a host.
 */
export function canonicalName(name: string): string | null {
  let host: string;
  try {
    host = new URL(`http://${name}/`).hostname;
  } catch {
    return null;
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host === '' || host.endsWith('.') ? null : host;
}

/** Whether a canonical host name is a loopback one: localhost and its subdomains, 127.0.0.0/8, ::1, ::ffff:127.0.0.0/104. */
export function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost'
    || name.endsWith('.localhost')
    || /^127\.\d+\.\d+\.\d+$/.test(name)
    || name === '[::1]'
    || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(name)
  );
}

/**
 * Reads a `--allow-host` value: a host name or address without port, scheme or path; its canonical
 * name, or the problem (a sentence the command prefixes with the flag).
 */
export function readAllowedHost(text: string): { name: string } | { problem: string } {
  let t = text.trim();
  // An IPv6 address as `--host` takes it, without brackets.
  if (/^[0-9A-Fa-f]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/.test(t)) t = `[${t}]`;
  const read = readHost(t);
  // A port, even an empty one, is the part after the last ':' outside the brackets.
  if ('problem' in read || /:\d*$/.test(t.replace(/^\[[^\]]*\]$/, ''))) {
    return {
      problem: `must be a host name or address alone (such as mock.example.com or 192.0.2.7), without scheme, port or path, got '${text}'`,
    };
  }
  return { name: read.name };
}

/** What a server serves: the address it is bound to, the name it was bound by, other addresses and the names allowed. */
export interface ServedHostsInput {
  /** The address the server is bound to, as the socket reports it (`127.0.0.1`, `::1`, `0.0.0.0`). */
  boundAddress: string;
  /** The `--host` text it was bound by, when a name (`localhost`, `box.lan`). */
  bindName?: string;
  /** For a wildcard bind: the addresses of this machine's interfaces. */
  machineAddresses?: readonly string[];
  /** `--allow-host` names, already read (readAllowedHost). */
  allowed?: readonly string[];
}

/** The hosts one server serves, and its verdict on each Host it is sent (kept for the few it sees). */
export class ServedHosts {
  private readonly names = new Set<string>();
  /** The names given with --allow-host: an Origin naming one of them is the server's own whatever its port. */
  readonly allowed: ReadonlySet<string>;
  private readonly verdicts = new Map<string, NamedHost | HostRefusal>();

  constructor(input: ServedHostsInput) {
    const add = (text: string | undefined): void => {
      if (text === undefined) return;
      const name = canonicalName(text.includes(':') && !text.startsWith('[') ? `[${text}]` : text);
      if (name !== null) this.names.add(name);
    };
    add(input.boundAddress);
    add(input.bindName);
    for (const a of input.machineAddresses ?? []) add(a);
    this.allowed = new Set(input.allowed ?? []);
    for (const name of this.allowed) this.names.add(name);
  }

  /** Whether a canonical name is one this server serves. */
  serves(name: string): boolean {
    return isLoopbackName(name) || this.names.has(name);
  }

  /**
   * The host a request names (`authority` of an absolute-form target, else its Host lines as node
   * read them, `rawHeaders`): the host read, null when it names none, or the refusal to answer.
   */
  check(authority: string | null, rawHeaders: readonly string[]): NamedHost | HostRefusal | null {
    let text: string | null = authority;
    if (text === null) {
      let lines = 0;
      for (let i = 0; i < rawHeaders.length; i += 2) {
        const n = rawHeaders[i]!;
        // As clients spell it first: no lower-cased copy of the name on the hot path.
        if (n.length === 4 && (n === 'Host' || n === 'host' || n.toLowerCase() === 'host')) {
          lines++;
          text = rawHeaders[i + 1]!;
        }
      }
      if (lines > 1) return refusal(400, 'VAL0001', `host: ${lines} Host lines; a request names one host`);
      // No Host, or an empty one (HTTP/1.0, or a target without an authority): it names no other host.
      if (text === null || text === '') return null;
    }
    if (text.length > MEMO_HOST_CHARS) return this.decide(text);
    let verdict = this.verdicts.get(text);
    if (verdict === undefined) {
      verdict = this.decide(text);
      if (this.verdicts.size >= MEMO_HOSTS) this.verdicts.clear();
      this.verdicts.set(text, verdict);
    }
    return verdict;
  }

  private decide(text: string): NamedHost | HostRefusal {
    const read = readHost(text);
    if ('problem' in read) return refusal(400, 'VAL0001', read.problem);
    if (this.serves(read.name)) return read;
    const name = read.name.replace(/^\[|\]$/g, '');
    return refusal(
      421,
      'MISDIRECTED_REQUEST',
      `host: '${text.slice(0, 100)}' is not a name this mock serves (it serves loopback names and addresses, the address it is bound to, and names given with --allow-host); a page that points a name of its own at this machine is refused so, and a proxy in front of the mock with a name of its own needs mkt mock serve --allow-host ${name}`,
    );
  }
}

/** Whether an answer to a Host is a refusal. */
export function isHostRefusal(v: NamedHost | HostRefusal | null): v is HostRefusal {
  return v !== null && 'status' in v;
}

function refusal(status: 400 | 421, code: string, message: string): HostRefusal {
  return { status, body: { code, message } };
}
