/**
 * bench:hunt's shrinks (pure): what a find's shrink came to, read from the
 * lines `fencecheck shrink` (or a hunt shrinking its own find) prints and
 * the shrink.json it names, and the table of them per target: how long each
 * shrink took, how small its plan ended, and how often that plan failed again.
 * The issue's bar (#30): a median of at most 3 minutes, at most 2 fault
 * events and 2 clients, reproduced at least 4 times.
 */
import { formatDuration } from '../src/compare/format-units.js';
import type { BenchTarget } from './hunt-targets.js';
import { median, spread } from './hunt-table.js';

/** One find's shrink as the bench saw it. */
export interface ShrinkFacts {
  /** `hunt`: the hunt shrank its own find on its warm lanes; `command`: `fencecheck shrink RUN_DIR` afterwards. */
  by: 'hunt' | 'command';
  /** The summary line (`shrunk to …; reproduced …` or `not shrunk: …`), or what went wrong. */
  line: string;
  /** The shrunk plan's size, when it shrank. */
  faultEvents: number | null;
  clients: number | null;
  /** The shrunk plan's re-runs: failed `fails` of `of`. */
  reproduced: { fails: number; of: number } | null;
  /** The shrink's own time (shrink.json's elapsedMs), else the command's wall time; null when neither is known. */
  elapsedMs: number | null;
  shrinkJson: string | null;
}

const SHRUNK = /^shrunk to (\d+) fault events?, (\d+) clients?, \d+ s; reproduced (\d+)\/(\d+)/m;
const NOT_SHRUNK = /^not shrunk: .*$/m;
const SHRINK_JSON = /^shrink: (.+shrink\.json)$/m;

/**
 * The facts of one shrink from its printed lines and its shrink.json (`readJson`: the file's document, null when
 * it cannot be read). `wallMs`: the command's own time, used when shrink.json does not say (a plan not shrunk
 * writes none).
 */
export function shrinkFacts(by: ShrinkFacts['by'], stdout: string, readJson: (path: string) => unknown, wallMs: number | null): ShrinkFacts {
  const shrunk = SHRUNK.exec(stdout);
  const path = SHRINK_JSON.exec(stdout)?.[1] ?? null;
  const doc = path === null ? null : readJson(path);
  const elapsed = typeof doc === 'object' && doc !== null ? (doc as { elapsedMs?: unknown }).elapsedMs : undefined;
  const line = shrunk?.[0] ?? NOT_SHRUNK.exec(stdout)?.[0] ?? `no shrink line: ${stdout.trim().split('\n').slice(-2).join(' / ').slice(0, 300)}`;
  return {
    by,
    line,
    faultEvents: shrunk ? Number(shrunk[1]) : null,
    clients: shrunk ? Number(shrunk[2]) : null,
    reproduced: shrunk ? { fails: Number(shrunk[3]), of: Number(shrunk[4]) } : null,
    elapsedMs: typeof elapsed === 'number' && Number.isFinite(elapsed) ? elapsed : wallMs,
    shrinkJson: path,
  };
}

/** At most 2 fault events and 2 clients: the size the issue asks a shrunk find to reach. */
export const isSmall = (s: ShrinkFacts): boolean => s.faultEvents !== null && s.clients !== null && s.faultEvents <= 2 && s.clients <= 2;

/** Reproduced at least 4 times (4 of 5, or 4 of 4 when the fifth was not needed). */
export const isReproduced = (s: ShrinkFacts): boolean => s.reproduced !== null && s.reproduced.fails >= 4;

/** The shrinks' table, one line per target with shrunk finds, and a line over all of them; null when no row has a shrink. */
export function shrinkTable(rows: readonly { target: string; seed: number; shrink?: ShrinkFacts }[], targets: readonly BenchTarget[]): string | null {
  const shrunk = rows.filter((r) => r.shrink !== undefined);
  if (shrunk.length === 0) return null;
  const lines = ['| target | finds shrunk | shrink time, median (range) | shrunk to, seed by seed | shrunk plan reproduced |', '|---|---|---|---|---|'];
  for (const t of targets) {
    const mine = shrunk.filter((r) => r.target === t.id).sort((a, b) => a.seed - b.seed);
    if (mine.length === 0) continue;
    const times = mine.flatMap((r) => (r.shrink!.elapsedMs === null ? [] : [r.shrink!.elapsedMs]));
    const time = spread(times, formatDuration);
    const sizes = mine
      .map((r) => `${r.seed}: ${r.shrink!.faultEvents === null ? 'not shrunk' : `${r.shrink!.faultEvents} ev, ${r.shrink!.clients} cl`}`)
      .join('; ');
    const rates = mine.map((r) => (r.shrink!.reproduced ? `${r.shrink!.reproduced.fails}/${r.shrink!.reproduced.of}` : '—')).join(', ');
    lines.push(`| ${t.id} | ${mine.filter((r) => r.shrink!.faultEvents !== null).length}/${mine.length} | ${time} | ${sizes} | ${rates} |`);
  }
  const all = shrunk.map((r) => r.shrink!);
  const times = all.flatMap((s) => (s.elapsedMs === null ? [] : [s.elapsedMs]));
  lines.push(
    '',
    `${all.length} shrinks: median ${times.length === 0 ? '—' : formatDuration(median(times))}, slowest ${times.length === 0 ? '—' : formatDuration(Math.max(...times))}; ` +
      `${all.filter(isSmall).length} of ${all.length} at most 2 fault events and 2 clients; ${all.filter(isReproduced).length} of ${all.length} reproduced at least 4 times` +
      ` (${all.filter((s) => s.by === 'hunt').length} shrunk by their hunt on its warm lanes, ${all.filter((s) => s.by === 'command').length} by \`fencecheck shrink\` afterwards).`,
  );
  return lines.join('\n');
}
