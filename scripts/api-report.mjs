// API reports of the two packages, by @microsoft/api-extractor: api/runtime.api.md (the public
// entry of @evgen/runtime; its ./internal subpath has no promise and no report) and
// api/event-management.api.md (the generated package's "." entry, which re-exports every
// subpath by name). The declarations are built first, as each package's prepack builds them.
//   node scripts/api-report.mjs          (npm run api)        writes the reports
//   node scripts/api-report.mjs --check  (npm run api:check)  fails when a public surface is not
//                                                              its committed report (CI)
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

export const PACKAGES = [
  { report: 'runtime', dir: 'src/runtime', tsconfig: 'src/runtime/tsconfig.build.json' },
  { report: 'event-management', dir: 'generated', tsconfig: 'generated/tsconfig.json' },
];

/**
 * Runs api-extractor on one package's built declarations. `check`: compare only (api-extractor
 * without --local), else write the report. `reportFolder`: where the reports are (default api/).
 */
export function apiReport(pkg, { check, reportFolder = join(ROOT, 'api'), log = console.error }) {
  const projectFolder = isAbsolute(pkg.dir) ? pkg.dir : join(ROOT, pkg.dir);
  const temp = join(ROOT, 'node_modules/.cache/api-extractor');
  mkdirSync(temp, { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder,
      mainEntryPointFilePath: '<projectFolder>/dist/index.d.ts',
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2023', 'DOM'],
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules/@types')],
            strict: true,
            skipLibCheck: true,
          },
          include: ['dist/**/*.d.ts'],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: pkg.report,
        reportFolder,
        reportTempFolder: temp,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // The doc comments are written for readers of the code and the editor, not for TSDoc's
        // grammar (@generated, {endpoint}): TSDoc's complaints are not the surface.
        tsdocMessageReporting: { default: { logLevel: 'none' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          // No release tags (@public, @beta): the entry point is the boundary.
          'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
          // Documenting every field is not what the report is for: it shows the surface.
          'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
        },
        compilerMessageReporting: { default: { logLevel: 'error' } },
      },
    },
    configObjectFullPath: join(projectFolder, 'api-extractor.json'),
    packageJsonFullPath: join(projectFolder, 'package.json'),
  });
  const messages = [];
  const result = Extractor.invoke(config, {
    localBuild: !check,
    messageCallback: (m) => {
      // The report's own verdict is ours to print; the rest goes through as it is.
      if (
        m.messageId === 'console-api-report-changed' ||
        m.messageId === 'console-api-report-copied'
      )
        m.handled = true;
      else if (m.logLevel === 'error' || m.logLevel === 'warning') {
        messages.push(m.formatMessageWithoutLocation?.() ?? m.text);
      }
      if (m.logLevel !== 'error' && m.logLevel !== 'warning') m.handled = true;
    },
  });
  const file = join(reportFolder, `${pkg.report}.api.md`);
  if (check && result.apiReportChanged)
    log(`${file} is not ${pkg.dir}'s public surface: run npm run api and commit the report`);
  return { changed: result.apiReportChanged, succeeded: result.succeeded, messages };
}

/** Builds a package's declarations (dist/) as its prepack does. */
export function buildDeclarations(pkg) {
  execFileSync('node', [TSC, '-p', join(ROOT, pkg.tsconfig)], { stdio: 'inherit' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let failed = false;
  for (const pkg of PACKAGES) {
    buildDeclarations(pkg);
    const r = apiReport(pkg, { check });
    if (!check && r.changed) console.log(`updated api/${pkg.report}.api.md`);
    failed ||= (check && r.changed) || !r.succeeded;
  }
  if (failed) process.exitCode = 1;
  else console.log(check ? 'api/ reports are current' : 'api/ reports written');
}
