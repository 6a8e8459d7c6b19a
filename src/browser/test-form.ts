// The test form of an operation page: reads the typed parameter inputs, calls the operation with
// the generated client over the chosen binding (signed here with Web Crypto, the browser's own
// HMAC, which browsers offer to pages on https and localhost only), and shows the
// result as tables and raw XML, or the fault's code and message. The secret key is read from its
// field only to sign: the inputs have no name (a native submission carries nothing), nothing is
// logged, and the keys are kept, when asked, in this tab's sessionStorage only.
import { BINDING_IDS, SERVICE, type BindingId } from '@evgen/event-management/service';
import { EventServiceClient } from '@evgen/event-management/client';
import { ServiceError } from '@evgen/event-management/errors';
import { prettyXml } from '@evgen/runtime/internal';
import { renderValue } from './result-view.js';

const STORED = { apiKey: 'evgen.apiKey', secretKey: 'evgen.secretKey' } as const;

type Control = HTMLInputElement | HTMLSelectElement;

/** A parameter input's value as the type its data-type names, or a message saying what is wrong. */
export function readParam(type: string, raw: string): { value: unknown } | { error: string } {
  const v = raw.trim();
  switch (type) {
    case 'int':
      return /^[+-]?\d+$/.test(v) ? { value: Number(v) } : { error: 'expected a whole number' };
    case 'boolean':
      return v === 'true' || v === 'false'
        ? { value: v === 'true' }
        : { error: 'expected true or false' };
    case 'dateTime': {
      // datetime-local leaves the seconds out when they are zero
      const full = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? `${v}:00` : v;
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?$/.test(full)
        ? { value: full }
        : { error: 'expected yyyy-MM-ddTHH:mm:ss' };
    }
    default:
      return { value: type === 'decimal' ? v : raw };
  }
}

function baseUrl(): string {
  const path = location.pathname;
  const prefix = path.endsWith(SERVICE.endpointPath)
    ? path.slice(0, path.length - SERVICE.endpointPath.length)
    : '';
  return `${location.origin}${prefix}`;
}

const isBinding = (v: string): v is BindingId => (BINDING_IDS as readonly string[]).includes(v);

function show(out: HTMLElement, ...nodes: Node[]): void {
  out.replaceChildren(...nodes);
  out.hidden = false;
}

/** An answer as it came, indented when it is XML and wrapped, so a long one reads at any width. */
function rawBlock(doc: Document, raw: string, empty: string) {
  return block(doc, 'pre', raw.trimStart().startsWith('<') ? prettyXml(raw) : raw || empty, 'raw');
}

function block(doc: Document, tag: 'p' | 'h3' | 'pre', text: string, className?: string) {
  const e = doc.createElement(tag);
  e.textContent = text;
  if (className) e.className = className;
  if (tag === 'pre') e.tabIndex = 0;
  return e;
}

function attach(form: HTMLFormElement, doc: Document): void {
  const out = doc.getElementById('test-result')!;
  const apiKey = form.querySelector<HTMLInputElement>('#api-key')!;
  const secretKey = form.querySelector<HTMLInputElement>('#secret-key')!;
  const remember = form.querySelector<HTMLInputElement>('#remember-keys')!;
  const binding = form.querySelector<HTMLSelectElement>('#binding')!;
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  const stored = sessionStorage.getItem(STORED.apiKey);
  if (stored !== null) {
    apiKey.value = stored;
    secretKey.value = sessionStorage.getItem(STORED.secretKey) ?? '';
    remember.checked = true;
  }
  const operation = form.dataset.operation ?? '';

  const invoke = async () => {
    if (!globalThis.crypto?.subtle)
      return show(
        out,
        block(
          doc,
          'p',
          'Calls are signed with Web Crypto, which browsers offer only to pages served over https or from localhost: open this page that way.',
          'fault',
        ),
      );
    const params: Record<string, unknown> = {};
    for (const c of Array.from(form.querySelectorAll<Control>('[data-param]'))) {
      const read = readParam(c.dataset.type ?? '', c.value);
      if ('error' in read)
        return show(out, block(doc, 'p', `${c.dataset.param}: ${read.error}`, 'fault'));
      params[c.dataset.param ?? ''] = read.value;
    }
    if (!isBinding(binding.value)) return;
    if (remember.checked) {
      sessionStorage.setItem(STORED.apiKey, apiKey.value);
      sessionStorage.setItem(STORED.secretKey, secretKey.value);
    } else {
      sessionStorage.removeItem(STORED.apiKey);
      sessionStorage.removeItem(STORED.secretKey);
    }
    if (form.dataset.mutating === 'true' && !confirm(`${operation} changes data. Call it?`)) return;
    let raw = '';
    const client = new EventServiceClient({
      baseUrl: baseUrl(),
      apiKey: apiKey.value,
      secretKey: secretKey.value,
      binding: binding.value,
      ...(form.dataset.namespace ? { namespace: form.dataset.namespace } : {}),
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        raw = await res.clone().text();
        return res;
      },
    });
    const call: unknown = Reflect.get(client, form.dataset.method ?? '');
    if (typeof call !== 'function') return;
    button.disabled = true;
    try {
      const result: unknown = await call.call(client, params);
      show(
        out,
        block(doc, 'h3', 'Result'),
        result === undefined
          ? block(doc, 'p', 'No result: the operation answered with an empty response.', 'ok')
          : renderValue(doc, result),
        block(doc, 'h3', 'Raw XML (indented)'),
        rawBlock(doc, raw, '(empty body)'),
      );
    } catch (e) {
      const fault =
        e instanceof ServiceError
          ? block(doc, 'p', `Fault ${e.code}: ${e.faultString} (HTTP ${e.httpStatus})`, 'fault')
          : block(doc, 'p', e instanceof Error ? e.message : String(e), 'fault');
      fault.dataset.code = e instanceof ServiceError ? e.code : '';
      show(
        out,
        block(doc, 'h3', 'Fault'),
        fault,
        block(doc, 'h3', 'Raw response'),
        rawBlock(doc, raw, '(no response)'),
      );
    } finally {
      button.disabled = false;
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void invoke();
  });
}

/** Attaches every test form of the page. */
export function startTestForms(doc: Document): void {
  doc.querySelectorAll<HTMLFormElement>('form.test-form').forEach((form) => attach(form, doc));
}
