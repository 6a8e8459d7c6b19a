// Indents XML written by the runtime's encoders (no comments, no mixed content, no whitespace
// between elements) for reading in samples: an element holding only text stays on one line, and
// tags are kept byte for byte, so prefixes, namespace declarations and escapes are what goes on
// the wire. Only whitespace between elements is added, which every reader of ours ignores.
const TOKEN = /<\?[^>]*\?>|<\/[^>]*>|<(?:[^>"']|"[^"]*"|'[^']*')*>|[^<]+/g;

export function prettyXml(xml: string, indent = '  '): string {
  const tokens = xml.match(TOKEN) ?? [];
  const lines: string[] = [];
  let depth = 0;
  const line = (s: string) => lines.push(indent.repeat(Math.max(depth, 0)) + s);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.startsWith('<?')) lines.push(t);
    else if (t.startsWith('</')) {
      depth--;
      line(t);
    } else if (!t.startsWith('<')) {
      if (t.trim() !== '') line(t.trim());
    } else if (t.endsWith('/>')) line(t);
    else {
      const next = tokens[i + 1];
      const after = tokens[i + 2];
      if (next?.startsWith('</')) {
        line(t + next);
        i += 1;
      } else if (next !== undefined && !next.startsWith('<') && after?.startsWith('</')) {
        line(t + next + after);
        i += 2;
      } else {
        line(t);
        depth++;
      }
    }
  }
  return lines.join('\n');
}
