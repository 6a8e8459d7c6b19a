// Strict, logic-free handlebars: unknown variables are errors, nothing is HTML-escaped, and only
// the helpers below exist. Templates print a view that is already decided.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Handlebars from 'handlebars';

export const helpers = {
  /** A JSON literal of the value: strings as double-quoted JS/JSON strings. */
  json: (value: unknown) => JSON.stringify(value),
} as const;

export interface Engine {
  render(template: string, view: object): string;
}

const COMPILE_OPTIONS = {
  strict: true,
  noEscape: true,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries(Object.keys(helpers).map((h) => [h, true])),
} as const;

export async function createEngine(templatesDir: string): Promise<Engine> {
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
  const partialsDir = join(templatesDir, 'partials');
  for (const file of (await readdir(partialsDir).catch(() => [] as string[])).sort()) {
    if (!file.endsWith('.hbs')) continue;
    const source = await readFile(join(partialsDir, file), 'utf8');
    hb.registerPartial(file.slice(0, -'.hbs'.length), hb.compile(source, COMPILE_OPTIONS));
  }
  const cache = new Map<string, HandlebarsTemplateDelegate>();
  const load = async (name: string) => {
    const source = await readFile(join(templatesDir, name), 'utf8');
    cache.set(name, hb.compile(source, COMPILE_OPTIONS));
  };
  for (const file of (await readdir(templatesDir)).sort())
    if (file.endsWith('.hbs')) await load(file);
  return {
    render(template, view) {
      const compiled = cache.get(template);
      if (!compiled) throw new Error(`no template ${template} in ${templatesDir}`);
      try {
        return compiled(view);
      } catch (e) {
        throw new Error(`template ${template}: ${(e as Error).message}`);
      }
    },
  };
}
