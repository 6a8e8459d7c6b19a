// Renders a decoded result as HTML tables, built with DOM calls (text is never parsed as HTML, so
// values from the service cannot inject markup): an object is a table of fields, a list of
// objects a table with a row per item, nil is shown as nil.
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
}

function cell(doc: Document, value: unknown, tag: 'td' | 'th' = 'td'): HTMLElement {
  const c = el(doc, tag);
  if (value === null) {
    c.className = 'nil';
    c.textContent = 'nil';
  } else c.append(renderValue(doc, value));
  return c;
}

function table(doc: Document, head: readonly string[], rows: readonly Node[][]): HTMLElement {
  const wrap = el(doc, 'div');
  wrap.className = 'scroll';
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', head.join(', '));
  const t = el(doc, 'table');
  const tr = el(doc, 'tr');
  for (const h of head) {
    const th = el(doc, 'th', h);
    th.scope = 'col';
    tr.append(th);
  }
  t.append(el(doc, 'thead'));
  t.tHead!.append(tr);
  const body = el(doc, 'tbody');
  for (const row of rows) {
    const r = el(doc, 'tr');
    r.append(...row);
    body.append(r);
  }
  t.append(body);
  wrap.append(t);
  return wrap;
}

export function renderValue(doc: Document, value: unknown): Node {
  if (value === null) return doc.createTextNode('nil');
  if (Array.isArray(value)) {
    if (value.length === 0) return el(doc, 'em', 'empty list');
    if (value.every(isRecord)) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
      return table(
        doc,
        keys,
        value.map((v) => keys.map((k) => cell(doc, v[k]))),
      );
    }
    const list = el(doc, 'ol');
    for (const v of value) {
      const item = el(doc, 'li');
      item.append(renderValue(doc, v));
      list.append(item);
    }
    return list;
  }
  if (isRecord(value))
    return table(
      doc,
      ['Field', 'Value'],
      Object.entries(value).map(([k, v]) => {
        const name = el(doc, 'th', k);
        name.scope = 'row';
        return [name, cell(doc, v)];
      }),
    );
  // numbers and booleans as on the wire; strings as they are
  return doc.createTextNode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
}
