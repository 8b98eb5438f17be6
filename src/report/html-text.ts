/**
 * Putting data into HTML without letting it become markup. Two channels only:
 * text in the few places the server writes HTML (`escapeHtml`), and one JSON
 * document per page inside `<script type="application/json">`
 * (`jsonForScript`), which the page parses and renders with d3's `.text()`.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element's content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON that can sit inside a `<script>` element: the HTML parser ends a script
 * at `</script` and treats `<!--` specially whatever the script's type, so no
 * `<` may appear raw. `\u003c` (and `>`, `&` for good measure) is the same
 * string to JSON.parse; U+2028/2029 are escaped for older JavaScript parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A whole page: `title` as text, the policy and the styles in the head, `body` as given (already HTML). */
export function htmlDocument(page: { title: string; csp: string; style: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(page.csp)}">
<title>${escapeHtml(page.title)}</title>
<style>
${page.style}
</style>
</head>
<body>
${page.body}
</body>
</html>
`;
}
