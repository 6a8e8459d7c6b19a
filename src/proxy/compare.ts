// Two answers to the same request compared value by value: status, content type, and the body
// element by element (XML) or as text, each difference at its path (`GetBookingResponse/
// GetBookingResult/Attendees/AttendeeResponse[0]/Email`). The namespace and the host that follow
// the address the service was called at are not differences: the recorded ones are read as the
// replayed ones.
import { type XmlElement } from '@evgen/runtime';
import { parseSoapEnvelope, parseXml } from '@evgen/runtime/internal';

/** What a difference shows for an element on one side only. */
export const PRESENT = '(present)';
export const ABSENT = '(absent)';

export interface ValueDifference {
  readonly path: string;
  readonly recorded: string;
  readonly replayed: string;
}

export interface ComparedAnswer {
  readonly status: number;
  readonly type: string;
  /** Undefined when the cassette did not keep it. */
  readonly body: string | undefined;
}

/** Recorded text read as replayed: the recorded namespace and host become the replay's. */
export interface Rebase {
  readonly from: readonly string[];
  readonly to: readonly string[];
}

function rebase(s: string, r: Rebase): string {
  let out = s;
  r.from.forEach((from, i) => {
    const to = r.to[i] ?? from;
    if (from && from !== to) out = out.split(from).join(to);
  });
  return out;
}

const isXml = (type: string) => {
  const media = type.split(';')[0]!.trim().toLowerCase();
  return media === 'text/xml' || media === 'application/xml' || media.endsWith('+xml');
};

/** The element compared: a SOAP answer's Body child, or the document's root. */
function top(body: string): XmlElement | undefined {
  try {
    const root = parseXml(body);
    if (root.name !== 'Envelope') return root;
    return parseSoapEnvelope(body).payload ?? root;
  } catch {
    return undefined;
  }
}

const qname = (el: XmlElement) => (el.ns ? `{${el.ns}}${el.name}` : el.name);

function compareElements(
  a: XmlElement,
  b: XmlElement,
  path: string,
  r: Rebase,
  out: ValueDifference[],
): void {
  const ra = rebase(a.ns, r);
  if (a.name !== b.name || ra !== b.ns) {
    out.push({ path, recorded: qname({ ...a, ns: ra }), replayed: qname(b) });
    return;
  }
  const keys = new Set([...Object.keys(a.attributes), ...Object.keys(b.attributes)]);
  for (const k of [...keys].sort()) {
    const va = a.attributes[k];
    const vb = b.attributes[k];
    if ((va === undefined ? undefined : rebase(va, r)) !== vb)
      out.push({ path: `${path}/@${k}`, recorded: va ?? '(none)', replayed: vb ?? '(none)' });
  }
  if (a.children.length === 0 && b.children.length === 0) {
    if (rebase(a.text, r) !== b.text) out.push({ path, recorded: a.text, replayed: b.text });
    return;
  }
  const names = [...new Set([...a.children, ...b.children].map((c) => c.name))];
  for (const name of names) {
    const as = a.children.filter((c) => c.name === name);
    const bs = b.children.filter((c) => c.name === name);
    const many = as.length > 1 || bs.length > 1;
    for (let i = 0; i < Math.max(as.length, bs.length); i++) {
      const at = `${path}/${many ? `${name}[${i}]` : name}`;
      const x = as[i];
      const y = bs[i];
      if (x && y) compareElements(x, y, at, r, out);
      else out.push({ path: at, recorded: x ? PRESENT : ABSENT, replayed: y ? PRESENT : ABSENT });
    }
  }
}

/** Every difference between a recorded answer and the replayed one. */
export function compareAnswers(
  recorded: ComparedAnswer,
  replayed: ComparedAnswer & { body: string },
  r: Rebase,
): ValueDifference[] {
  const out: ValueDifference[] = [];
  if (recorded.status !== replayed.status)
    out.push({
      path: '(status)',
      recorded: String(recorded.status),
      replayed: String(replayed.status),
    });
  if (recorded.type !== replayed.type)
    out.push({ path: '(content type)', recorded: recorded.type, replayed: replayed.type });
  if (recorded.body === undefined) return out;
  const a = isXml(recorded.type) ? top(recorded.body) : undefined;
  const b = isXml(replayed.type) ? top(replayed.body) : undefined;
  if (a && b) compareElements(a, b, a.name, r, out);
  else if (rebase(recorded.body, r) !== replayed.body)
    out.push({
      path: '(body)',
      recorded: recorded.body.slice(0, 300),
      replayed: replayed.body.slice(0, 300),
    });
  return out;
}
