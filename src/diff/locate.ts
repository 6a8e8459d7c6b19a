// Lines of spec symbols, for `file:line` in reports. The IR's provenance names a file and a
// symbol (`BookingResponse.CreatedDate`); the line is found from the loader's YAML positions:
// the entry whose `name` (or `id`, `code`, `operation`) is the symbol's first part, then within it
// the second.
// A part starting with `.` names a key instead (`.endpointPath`).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

const KEYS = ['name', 'id', 'code', 'operation'];

/** A spec file as provenance names it (`spec/…`), relative to its spec folder. */
export const inSpec = (specFile: string) => specFile.replace(/^spec\//, '');

export class SpecLocator {
  readonly #docs = new Map<string, Promise<{ root: Node | null; lines: LineCounter }>>();

  /** `specDir` is the folder the loader read; files are named `spec/…` as provenance names them. */
  constructor(private readonly specDir: string) {}

  async line(file: string, symbol: readonly string[]): Promise<number> {
    const { root, lines } = await this.#doc(file);
    let node: Node | null = root;
    let found = 1;
    for (const part of symbol) {
      const hit: Node | null = node ? findNamed(node, part) : null;
      if (!hit) break;
      node = hit;
      found = lines.linePos(hit.range?.[0] ?? 0).line;
    }
    return found;
  }

  #doc(file: string) {
    let hit = this.#docs.get(file);
    if (!hit) {
      hit = readFile(join(this.specDir, inSpec(file)), 'utf8').then((text) => {
        const lines = new LineCounter();
        return { root: parseDocument(text, { lineCounter: lines }).contents, lines };
      });
      this.#docs.set(file, hit);
    }
    return hit;
  }
}

/** The first map below `node` (depth first, in document order) naming `name`, or the value of key `.name`. */
function findNamed(node: Node, name: string): Node | null {
  if (isMap(node)) {
    for (const p of node.items) {
      if (!isScalar(p.key)) continue;
      const key = String(p.key.value);
      if (name.startsWith('.') && key === name.slice(1)) return (p.value as Node | null) ?? node;
      if (KEYS.includes(key) && isScalar(p.value) && String(p.value.value) === name) return node;
    }
    for (const p of node.items) {
      const hit = p.value && typeof p.value === 'object' ? findNamed(p.value as Node, name) : null;
      if (hit) return hit;
    }
  } else if (isSeq(node)) {
    for (const item of node.items) {
      const hit = item && typeof item === 'object' ? findNamed(item as Node, name) : null;
      if (hit) return hit;
    }
  }
  return null;
}
