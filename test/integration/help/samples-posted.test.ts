// The samples are real: every sample request of every operation page, fetched over HTTP from a
// generated server and posted as is (only the placeholders replaced by a fresh signature), is
// accepted; the handler gets exactly the sample parameters; the answer is the response sample.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Binding } from '@evgen/runtime';
import { prettyXml } from '@evgen/runtime/internal';
import { helpPages } from '@evgen/event-management/help';
import { ENDPOINT } from '../../support/requests.js';
import {
  OPERATION_NAMES,
  pageSamples,
  sampleBody,
  sampleToRequest,
  startEchoService,
  type EchoService,
} from '../../support/help.js';

let echo: EchoService;
beforeAll(async () => {
  echo = await startEchoService();
});
afterAll(() => echo.server.close());

describe.each(OPERATION_NAMES.map((n) => [n]))('%s', (name) => {
  it('each binding: the sample request is accepted and answered with the response sample', async () => {
    const page = await fetch(`${echo.server.url}${ENDPOINT}?op=${name}`);
    expect(page.status).toBe(200);
    const samples = pageSamples(await page.text());
    for (const binding of ['soap11', 'soap12', 'httpGet', 'httpPost'] as Binding[]) {
      const text = (part: string) =>
        samples.find((s) => s.binding === binding && s.part === part)!.text;
      const req = sampleToRequest(text('request'), name);
      echo.calls.length = 0;
      const res = await fetch(`${echo.server.url}${req.target}`, {
        method: req.method,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
      });
      const body = await res.text();
      expect([binding, res.status], body).toEqual([binding, 200]);
      expect(echo.calls).toEqual([
        { operation: name, params: helpPages.operations[name]!.sample.params },
      ]);
      const want = text('response');
      expect(want).toContain(`Content-Type: ${res.headers.get('content-type')}`);
      expect(body === '' ? '' : prettyXml(body)).toBe(sampleBody(want));
    }
  });
});
