// The help pages in a real browser (Debian's Chromium): the service page links every operation;
// every operation page renders its samples and its SOAP 1.1 sample, posted as is with a fresh
// signature, is accepted; the test form calls a read operation over each binding and shows what
// the database holds; a wrong secret shows AuthenticationFailed; mutating calls ask first; the
// secret never leaves the page; a page on another origin calls the service through CORS with the
// browser bundle; no console errors; no serious accessibility violations (axe-core); readable at
// phone width; each operation page says how to sign its samples; a raw fault answer is indented
// and wrapped; the form says where a key pair comes from, and on a page without Web Crypto (plain
// http other than localhost) that calls are signed with it, sending nothing.
// Screenshots go to .ci/artifacts/.
import { readFile, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE } from '@evgen/event-management/service';
import { helpPages } from '@evgen/event-management/help';
import { startReference, type Reference } from '../integration/reference/harness.js';
import {
  OPERATION_NAMES,
  sampleToRequest,
  startEchoService,
  type EchoService,
} from '../support/help.js';
import { PROJECT_ROOT } from '../support/ir.js';
import { launchChromium, type Browser } from './chromium.js';

const ARTIFACTS = join(PROJECT_ROOT, '.ci/artifacts');
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let ref: Reference;
let echo: EchoService;
let other: Server;
let otherPort: number;
/** Every request the browser sent, as text: URL, headers and body. */
const sent: string[] = [];

/** A page for other origins: imports the bundle from the service and calls it over each binding. */
function otherOriginPage(serviceUrl: string, key: { apiKey: string; secretKey: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another origin</title><link rel="icon" href="data:,"></head>
<body><main><pre id="out">pending</pre></main><script type="module">
const out = document.getElementById('out');
const results = {};
try {
  const { EventServiceClient } = await import(${JSON.stringify(`${serviceUrl}${SERVICE.endpointPath}?client.js`)});
  for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost']) {
    const client = new EventServiceClient({ baseUrl: ${JSON.stringify(serviceUrl)}, apiKey: ${JSON.stringify(key.apiKey)}, secretKey: ${JSON.stringify(key.secretKey)}, binding });
    results[binding] = (await client.getBookingDetails({ bookingId: 2 })).BookingReference;
  }
  out.textContent = JSON.stringify(results);
} catch (e) {
  out.textContent = 'failed: ' + e.message;
}
</script></body></html>`;
}

beforeAll(async () => {
  // The other origin's server first: the service is told its origin.
  other = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(otherOriginPage(ref.svc.server.url, ref.svc.demoKey!));
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherPort = (other.address() as AddressInfo).port;
  ref = await startReference(
    { events: 4, bookings: 40 },
    { cors: [`http://127.0.0.1:${otherPort}`] },
  );
  echo = await startEchoService();
  browser = await launchChromium();
  browser.context.on('request', (r) =>
    sent.push(`${r.url()}\n${JSON.stringify(r.headers())}\n${r.postData() ?? ''}`),
  );
  await mkdir(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await echo?.server.close();
  await ref?.stop();
  await new Promise((resolve) => other?.close(resolve));
});

const endpointOf = (url: string) => `${url}${SERVICE.endpointPath}`;

/** axe-core's violations of impact serious or critical on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE); // evaluated by the driver, so the page's CSP does not apply
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function fillKeys(page: Page, secret: string) {
  await page.fill('#api-key', ref.svc.demoKey!.apiKey);
  await page.fill('#secret-key', secret);
}

/** Field → shown value of the result's first table. */
async function resultFields(page: Page): Promise<Record<string, string>> {
  return page.$$eval('#test-result table tbody tr', (rows) =>
    Object.fromEntries(
      rows.map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]),
    ),
  );
}

describe('service page', () => {
  it('lists every operation, each linked to a page that renders', async () => {
    const { page, errors } = await browser.page();
    const res = await page.goto(endpointOf(ref.svc.server.url));
    expect(res!.status()).toBe(200);
    const links = await page.$$eval('main table a[href*="?op="]', (as) =>
      as.map((a) => ({ text: a.textContent, href: (a as HTMLAnchorElement).href })),
    );
    expect(links.map((l) => l.text)).toEqual(OPERATION_NAMES);
    await page.click(`a[href$="?op=${OPERATION_NAMES[0]}"]`);
    expect(await page.textContent('h1')).toContain(OPERATION_NAMES[0]);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is readable at phone width: nothing wider than the screen, screenshots saved', async () => {
    const { page, errors } = await browser.page({ width: 390, height: 844 });
    for (const [url, shot] of [
      [endpointOf(ref.svc.server.url), 'help-service.png'],
      [`${endpointOf(ref.svc.server.url)}?op=GetBooking`, 'help-operation.png'],
      [`${endpointOf(ref.svc.server.url)}?gaps`, undefined],
    ] as const) {
      await page.goto(url);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, url).toBeLessThanOrEqual(390);
      if (shot) await page.screenshot({ path: join(ARTIFACTS, shot) });
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('operation pages', () => {
  it('every page renders its four samples, and its SOAP 1.1 sample posted as is is accepted', async () => {
    const { page, errors } = await browser.page();
    for (const name of OPERATION_NAMES) {
      const res = await page.goto(`${endpointOf(echo.server.url)}?op=${name}`);
      expect(res!.status(), name).toBe(200);
      const samples = await page.$$eval('pre.sample', (els) =>
        els.map((e) => ({
          binding: (e as HTMLElement).dataset.binding,
          part: (e as HTMLElement).dataset.part,
          text: e.textContent ?? '',
        })),
      );
      expect(
        samples.map((s) => `${s.binding} ${s.part}`),
        name,
      ).toEqual(
        ['soap11', 'soap12', 'httpGet', 'httpPost'].flatMap((b) => [
          `${b} request`,
          `${b} response`,
        ]),
      );
      // how to sign them, beside them
      expect(await page.locator('#signing ~ ul').first().textContent(), name).toContain(
        'HMAC-SHA1',
      );
      const req = sampleToRequest(samples[0]!.text, name);
      echo.calls.length = 0;
      const answer = await fetch(`${echo.server.url}${req.target}`, {
        method: req.method,
        headers: req.headers,
        body: req.body!,
      });
      expect([name, answer.status], await answer.text()).toEqual([name, 200]);
      expect(echo.calls).toEqual([
        { operation: name, params: helpPages.operations[name]!.sample.params },
      ]);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a 404 page answers an unknown operation', async () => {
    const { page } = await browser.page();
    const res = await page.goto(`${endpointOf(ref.svc.server.url)}?op=NoSuchOperation`);
    expect(res!.status()).toBe(404);
    expect(await page.textContent('h1')).toContain('NoSuchOperation');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('test form', () => {
  it('calls a read operation over each binding and shows the values the database holds', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=GetBookingDetails`);
    await fillKeys(page, ref.svc.demoKey!.secretKey);
    const bindings = ['soap11', 'soap12', 'httpGet', 'httpPost'];
    for (const [i, binding] of bindings.entries()) {
      const bookingId = i + 1;
      const row = await ref.one<{ reference: string; secure_key: string; n: number }>(
        'SELECT reference, secure_key, (SELECT count(*) FROM attendee WHERE booking_id = b.id) AS n FROM booking b WHERE id = ?',
        bookingId,
      );
      await page.fill('#param-bookingId', String(bookingId));
      await page.selectOption('#binding', binding);
      await page.click('button[type=submit]');
      await page.waitForFunction(
        (id) => document.querySelector('#test-result td')?.textContent === String(id),
        bookingId,
      );
      expect(await resultFields(page), binding).toMatchObject({
        BookingId: String(bookingId),
        BookingReference: row.reference,
        SecureKey: row.secure_key,
        AttendeeCount: String(row.n),
      });
      const raw = await page.textContent('#test-result pre');
      expect(raw, binding).toContain(
        binding.startsWith('soap') ? 'GetBookingDetailsResponse' : '<BookingDetails',
      );
    }
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a wrong secret shows the AuthenticationFailed fault with its message', async () => {
    const { page } = await browser.page();
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=GetBookingDetails`);
    await fillKeys(page, 'not-the-secret');
    for (const binding of ['soap11', 'httpGet']) {
      await page.selectOption('#binding', binding);
      await page.click('button[type=submit]');
      const fault = page.locator('#test-result p.fault');
      await fault.waitFor();
      expect(await fault.getAttribute('data-code')).toBe('AuthenticationFailed');
      expect(await fault.textContent()).toMatch(/^Fault AuthenticationFailed: .+/);
      await page.evaluate(() => document.getElementById('test-result')!.replaceChildren());
    }
    await page.close();
  });

  it('shows a raw fault response indented and wrapped, readable at phone width', async () => {
    const { page, errors } = await browser.page({ width: 390, height: 844 });
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=GetBookingDetails`);
    await fillKeys(page, 'not-the-secret');
    await page.selectOption('#binding', 'soap11');
    await page.click('button[type=submit]');
    const raw = page.locator('#test-result pre');
    await raw.waitFor();
    const text = (await raw.textContent()) ?? '';
    expect(text).toContain('AuthenticationFailed');
    // one element a line, as the samples are, not the one line the service sent
    expect(text.split('\n').length).toBeGreaterThan(5);
    expect(text).toMatch(/\n {2}<soap:Body>\n {4}<soap:Fault>/);
    const box = await raw.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    // the one console line is the browser's note of the fault's HTTP 500
    expect(errors.filter((e) => !e.includes('status of 500'))).toEqual([]);
    await page.close();
  });

  it('says how to open a page without Web Crypto (plain http, not localhost), and sends nothing', async () => {
    // Signatures are the platform's HMAC (issue 38): in a browser, Web Crypto's, which browsers
    // offer to pages on https and localhost only.
    const { page } = await browser.page();
    await page.addInitScript(() =>
      Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined }),
    );
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=GetBookingDetails`);
    expect(await page.evaluate(() => globalThis.crypto.subtle)).toBeUndefined();
    await fillKeys(page, ref.svc.demoKey!.secretKey);
    await page.fill('#param-bookingId', '1');
    const sent: string[] = [];
    page.on('request', (r) => void sent.push(`${r.method()} ${r.url()}`));
    await page.click('button[type=submit]');
    await expect
      .poll(() => page.textContent('#test-result'))
      .toContain(
        'Calls are signed with Web Crypto, which browsers offer only to pages served over https or from localhost',
      );
    expect(sent).toEqual([]);
    await page.close();
  });

  it('says where to get a key pair', async () => {
    const { page } = await browser.page();
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=GetBookingDetails`);
    expect(await page.textContent('.test-form fieldset:last-of-type')).toContain(
      'evgen keys create --name <you>',
    );
    await page.close();
  });

  it('asks before a mutating call, and calls nothing when refused', async () => {
    const booking = await ref.one<{ id: number; reference: string }>(
      "SELECT b.id, b.reference FROM booking b JOIN booking_status s ON s.id = b.status_id WHERE s.name <> 'Cancelled' LIMIT 1",
    );
    const status = async () =>
      (
        await ref.one<{ name: string }>(
          'SELECT s.name FROM booking b JOIN booking_status s ON s.id = b.status_id WHERE b.id = ?',
          booking.id,
        )
      ).name;
    const { page, errors } = await browser.page();
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=CancelBooking`);
    await fillKeys(page, ref.svc.demoKey!.secretKey);
    await page.fill('#param-bookingReference', booking.reference);
    const messages: string[] = [];
    page.once('dialog', (d) => (messages.push(d.message()), void d.dismiss()));
    ref.logs.length = 0;
    await page.click('button[type=submit]');
    expect(messages).toEqual(['CancelBooking changes data. Call it?']);
    page.once('dialog', (d) => void d.accept());
    await page.click('button[type=submit]');
    await page.locator('#test-result p.ok').waitFor();
    expect(await status()).toBe('Cancelled');
    // one call reached the service: the accepted one (a refused call would have been logged too)
    const calls = ref.logs.filter(
      (l) => (JSON.parse(l) as { operation?: string }).operation === 'CancelBooking',
    );
    expect(calls).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('never sends, logs or keeps the secret beyond sessionStorage', async () => {
    const secret = ref.svc.demoKey!.secretKey;
    const { page, errors } = await browser.page();
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=GetBookingDetails`);
    await fillKeys(page, secret);
    await page.check('#remember-keys');
    await page.click('button[type=submit]');
    await page.locator('#test-result table').waitFor();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((s) => s.includes(secret))).toEqual([]);
    expect(logged.filter((s) => s.includes(secret))).toEqual([]);
    expect(ref.logs.filter((s) => s.includes(secret))).toEqual([]);
    const storage = await page.evaluate(() => ({
      local: localStorage.length,
      cookies: document.cookie,
      session: sessionStorage.getItem('evgen.secretKey'),
    }));
    expect(storage).toEqual({ local: 0, cookies: '', session: secret });
    // kept for the next operation page of this tab, and forgotten when unticked
    await page.goto(`${endpointOf(ref.svc.server.url)}?op=GetAttendeeStatuses`);
    expect(await page.inputValue('#secret-key')).toBe(secret);
    await page.uncheck('#remember-keys');
    await page.click('button[type=submit]');
    await page.locator('#test-result table').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('another origin', () => {
  it('calls the service through CORS with the browser bundle over each binding', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`http://127.0.0.1:${otherPort}/`);
    await page.waitForFunction(() => document.getElementById('out')!.textContent !== 'pending');
    const { reference } = await ref.one<{ reference: string }>(
      'SELECT reference FROM booking WHERE id = 2',
    );
    expect(JSON.parse((await page.textContent('#out'))!)).toEqual({
      soap11: reference,
      soap12: reference,
      httpGet: reference,
      httpPost: reference,
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an origin not allowed is refused by the browser', async () => {
    const { page } = await browser.page();
    // the same server under another name is another origin, one the service was not told of
    await page.goto(`http://localhost:${otherPort}/`);
    await page.waitForFunction(() => document.getElementById('out')!.textContent !== 'pending');
    expect(await page.textContent('#out')).toMatch(/^failed: /);
    await page.close();
  });
});
