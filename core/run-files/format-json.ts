/**
 * formatJson: JSON for people and for `diff`: a value that fits on a line of
 * about 100 characters is written on one, anything bigger is broken over
 * lines with two-space indentation. A plan's thousand sections then read one
 * per line, not seven (JSON.stringify's indentation is all or nothing).
 * JSON.parse reads it back as JSON.stringify would have written it.
 */
const WIDTH = 100;

export function formatJson(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value);
  if (flat === undefined || flat.length + indent.length <= WIDTH || typeof value !== 'object' || value === null) return flat ?? 'null';
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + formatJson(v === undefined ? null : v, inner)).join(',\n')}\n${indent}]`;
  }
  // As JSON.stringify: fields whose value is undefined (or a function) are left out.
  const entries = Object.entries(value).filter(([, v]) => JSON.stringify(v) !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`;
}
