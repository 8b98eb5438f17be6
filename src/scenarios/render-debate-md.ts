/**
 * debate.md: the debate table in Markdown (for a README, an issue or a CI
 * step summary): one row per scenario variant with the claim and both
 * sides' predictions (on the scenario's first row), the agreed outcome, the
 * measured verdict and a link per seed to the run's report; then how to
 * replay each run. Values are escaped with compare's `md` and `code`, and
 * link targets are percent-encoded, so no value can break the table or make
 * a link of its own.
 */
import { code, md } from '../compare/render-summary-md.js';
import { formatDuration } from '../compare/format-units.js';
import type { DebateReport, DebateRow, DebateRunLink } from './debate-report.js';

export function renderDebateMd(report: DebateReport): string {
  const lines = [
    '## The Redlock debate, measured',
    '',
    `${md(report.headline)}`,
    '',
    `seeds ${md(report.seeds.join(', ') || 'none')}${report.durationMs === null ? '' : ` · ${md(formatDuration(report.durationMs))}`} · generated ${md(report.generatedAt)}`,
    '',
    '| scenario | variant | claim | Kleppmann predicts | antirez predicts | agreed outcome | measured | runs |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const s of report.scenarios) {
    s.rows.forEach((r, i) => {
      const first = i === 0;
      const claim = first ? md(s.claim) + (s.notReproduced === null ? '' : ` **Not reproduced:** ${md(s.notReproduced)}`) : '';
      lines.push(
        `| ${first ? `**${md(s.id)}** ${md(s.title)}` : ''} | ${code(r.label)} ${md(r.text)} | ${claim} | ${first ? md(s.predictions.kleppmann) : ''} | ${first ? md(s.predictions.antirez) : ''} | ${expectedText(r)} | ${measuredText(r)} | ${r.runs.map(runLink).join(' ')} |`,
      );
    });
  }
  lines.push(
    '',
    '**lock**: the lock was held by two clients at once. **data**: the resource was damaged. ✓ as the debate agrees · ✗ differs · ? undecided · ⚖️ disputed (no agreed outcome)',
  );
  const replays = report.scenarios.flatMap((s) =>
    s.rows.flatMap((r) => r.runs.filter((x) => x.sharedFrom === null).map((x) => `- **${md(s.id)}** ${md(r.label)} seed ${x.seed}: ${code(x.replay)}`)),
  );
  if (replays.length > 0) lines.push('', '### Replay', '', ...replays);
  return lines.join('\n') + '\n';
}

const MATCH_MARK: Record<DebateRow['match'], string> = { 'as-expected': '✓', differs: '✗', undecided: '?', 'no-expectation': '⚖️' };

function expectedText(r: DebateRow): string {
  if (r.expected === null) return 'not agreed';
  const parts = [r.expected.lock ? `lock ${r.expected.lock}` : '', r.expected.data ? `data ${r.expected.data}` : ''].filter((p) => p !== '');
  return `${md(parts.join(', '))} (${md(r.expected.why)})`;
}

function measuredText(r: DebateRow): string {
  if (r.status !== 'measured') return md(r.verdict);
  const notes = r.notes.length === 0 ? '' : `<br>${md(r.notes.join('; '))}`;
  return `${MATCH_MARK[r.match]} data ${md(r.data.text)}; lock ${md(r.lock.text)}${notes}`;
}

function runLink(run: DebateRunLink): string {
  const label = `s${run.seed}${run.status === 'valid' ? '' : run.status === 'invalid' ? ' ✗' : ' ?'}`;
  return run.link === null ? md(label) : `[${md(label)}](${target(run.link)})`;
}

/** A relative path as a Markdown link target: each segment percent-encoded, parentheses too. */
export function target(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}
