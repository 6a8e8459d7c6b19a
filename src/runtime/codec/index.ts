// What codec/ offers the rest of the runtime and its two entry points (../index.ts, the public
// surface; ../internal.ts, evgen's own), by name.
export {
  findChild,
  httpDocumentStart,
  openOperationElement,
  requireChild,
  requireRoot,
  soapOperationElement,
  writeItems,
} from './elements.js';
export { paramBoolean, paramDateTime, paramDecimal, paramInt, paramString } from './params.js';
export { frozenThrough, writeKept } from './kept.js';
