// Import lists derived from use: each view records every name its expressions and partials
// print, and the template imports exactly those, so a generated file never lacks an import or
// carries an unused one.
export class ImportSet {
  readonly #values = new Set<string>();
  readonly #types = new Set<string>();

  /** Records a value (function, constant) and returns its name, for use inside an expression. */
  value(name: string): string {
    this.#values.add(name);
    return name;
  }

  /** Records a type-only name and returns it. */
  type(name: string): string {
    this.#types.add(name);
    return name;
  }

  /** The import statement of these names from `module` ('' when none is used), names sorted. */
  statement(module: string): string {
    const sorted = (s: Iterable<string>) => [...s].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const values = sorted(this.#values);
    const types = sorted(this.#types).filter((t) => !this.#values.has(t));
    const from = JSON.stringify(module);
    if (values.length === 0)
      return types.length === 0 ? '' : `import type { ${types.join(', ')} } from ${from};`;
    return `import { ${[...values, ...types.map((t) => `type ${t}`)].join(', ')} } from ${from};`;
  }
}
