// The static documentation `evgen docs` writes: the help pages the service serves at its endpoint,
// with the document's placeholders for addresses ({base_url}, {soap_namespace}; {host} is the host
// of {base_url}), links between files, and no test forms (a file has no service to call).
import { type HelpLinks } from '@evgen/runtime';
import { helpServiceOf, helpSite, renderOperationPage } from '@evgen/runtime/internal';
import { authScheme } from '@evgen/event-management/auth';
import { SERVICE, WIRE } from '@evgen/event-management/service';
import { helpPages } from '@evgen/event-management/help';
import { operations } from '@evgen/event-management/operations';
import { renderWsdl } from '@evgen/event-management/wsdl';

export const STATIC_ADDRESS = {
  baseUrl: '{base_url}',
  host: '{host}',
  namespace: '{soap_namespace}',
} as const;

const STATIC_LINKS: HelpLinks = {
  service: 'index.html',
  gaps: 'gaps.html',
  wsdl: 'service.wsdl',
  script: '',
  operation: (name) => `${encodeURIComponent(name)}.html`,
};

/** Every file of the static documentation by name, sorted. */
export async function staticHelpFiles(): Promise<Map<string, string>> {
  const service = helpServiceOf(operations, authScheme, WIRE);
  const site = helpSite(service, STATIC_ADDRESS, STATIC_LINKS, false);
  const files = new Map<string, string>([
    [STATIC_LINKS.service, helpPages.service(site)],
    [STATIC_LINKS.gaps, helpPages.gaps(site)],
    [
      STATIC_LINKS.wsdl,
      renderWsdl(`${STATIC_ADDRESS.baseUrl}${SERVICE.endpointPath}`, STATIC_ADDRESS.namespace),
    ],
  ]);
  for (const name of Object.keys(helpPages.operations)) {
    const page = await renderOperationPage(helpPages, service, name, STATIC_ADDRESS, site);
    if (page === undefined) throw new Error(`no operation ${name} for its help page`);
    files.set(STATIC_LINKS.operation(name), page);
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}
