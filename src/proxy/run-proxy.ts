// `evgen proxy` from start to exit: the banner, each new finding as one line on stdout as it is
// seen, the report written periodically (when asked) and on stop, a summary, and the exit status:
// 1 when anything was found (a target that did not answer included), 0 otherwise.
import { rename, writeFile } from 'node:fs/promises';
import { findingLine } from './finding.js';
import { startProxy, type ProxyOptions } from './proxy.js';
import { formatProxyMarkdown, type ProxyReport } from './report.js';

export interface ProxyRun extends ProxyOptions {
  /** Where the report goes: .json or .md. */
  readonly reportFile?: string;
  readonly reportEverySeconds?: number;
  /** Resolves when the proxy is to stop (SIGINT, SIGTERM). */
  readonly stop: Promise<unknown>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Written whole or not at all: a periodic write never leaves half a report. */
export async function writeReportFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

const reportText = (file: string, r: ProxyReport) =>
  file.endsWith('.md') ? formatProxyMarkdown(r) : `${JSON.stringify(r, null, 2)}\n`;

export async function runProxy(o: ProxyRun): Promise<number> {
  const proxy = await startProxy({ ...o, onFinding: (f) => o.out(findingLine(f)) });
  o.err(
    `evgen proxy: listening at ${proxy.url}, forwarding to ${o.target} (level ${proxy.level}${o.record ? `, recording to ${o.record.file}` : ''}); stop with Ctrl-C`,
  );
  let writing = Promise.resolve();
  const write = (r: ProxyReport) =>
    (writing = writing.then(() =>
      o.reportFile ? writeReportFile(o.reportFile, reportText(o.reportFile, r)) : undefined,
    ));
  const timer =
    o.reportFile && o.reportEverySeconds
      ? setInterval(
          () => void write(proxy.report()).catch(() => undefined),
          o.reportEverySeconds * 1000,
        )
      : undefined;
  await o.stop;
  clearInterval(timer);
  const report = await proxy.close();
  await write(report);
  const distinct = report.distinct.length + report.distinctNotKept;
  o.err(
    `evgen proxy: ${report.exchanges} exchanges, ${report.findings} findings (${distinct} distinct), ${report.targetFailures} without an answer from the target${o.reportFile ? `; report written to ${o.reportFile}` : ''}`,
  );
  return report.findings > 0 ? 1 : 0;
}
