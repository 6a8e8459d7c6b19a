// What help/ offers the rest of the runtime and its two entry points (../index.ts, the public
// surface; ../internal.ts, evgen's own), by name.
export {
  type HelpLinks,
  type HelpOperation,
  type HelpPages,
  type HelpSample,
  type HelpSamples,
  type HelpSite,
} from './pages.js';
export { prettyXml } from './pretty.js';
export {
  MAX_CACHED_PAGES,
  createHelpResponder,
  endpointLinks,
  helpServiceOf,
  helpSite,
  renderOperationPage,
  type HelpOptions,
} from './serve.js';
