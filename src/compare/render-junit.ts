/**
 * junit.xml: one test case per matrix cell, so CI systems that read JUnit
 * (GitHub test reporters, GitLab, Jenkins) list every cell.
 *
 *   with expectations   a cell fails when its expectation is unmet; an
 *                       expectation that names no cell is a failing case too
 *   without             unsafe is a failure, unknown/incomplete an error,
 *                       untested skipped with why (valid is not a pass without evidence)
 *   always              not applicable and not-run-here cells are skipped
 *
 * Each case's system-out lists its runs with their run directories and replay
 * commands. Every value is XML-escaped, and characters XML 1.0 cannot hold
 * (most control characters) become U+FFFD.
 */
import { describeEvidence, formatKinds } from './cell-summary.js';
import type { CompareReport, ReportCell } from './compare-report.js';

export function renderJunit(report: CompareReport): string {
  const cases = report.cells.map((c) => renderCase(c, report.expectations !== null));
  for (const e of report.expectations ?? []) {
    if (e.matchedNoCell) {
      cases.push({
        xml: `    <testcase classname="fencecheck.compare.expectations" name="expectation #${e.index}" time="0">\n      <failure type="expectation" message="${xml(`expectation #${e.index} names no cell of the matrix: ${e.text}`)}"/>\n    </testcase>`,
        kind: 'failure',
        seconds: 0,
      });
    }
  }
  const count = (k: CaseKind): number => cases.filter((c) => c.kind === k).length;
  const seconds = cases.reduce((t, c) => t + c.seconds, 0).toFixed(3);
  const attrs = `tests="${cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${seconds}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="fencecheck compare" ${attrs}>`,
    `  <testsuite name="fencecheck compare" ${attrs} timestamp="${xml(report.generatedAt)}">`,
    '    <properties>',
    `      <property name="description" value="${xml(report.description)}"/>`,
    `      <property name="headline" value="${xml(report.headline)}"/>`,
    `      <property name="shards" value="${xml(report.shards.join(' '))}"/>`,
    '    </properties>',
    ...cases.map((c) => c.xml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

type CaseKind = 'pass' | 'failure' | 'error' | 'skipped';

function renderCase(c: ReportCell, withExpectations: boolean): { xml: string; kind: CaseKind; seconds: number } {
  const seconds = c.durationMs / 1000;
  const open = `    <testcase classname="${xml(`fencecheck.compare.${c.lock ?? c.backend}.${c.resource}`)}" name="${xml(c.id)}" time="${seconds.toFixed(3)}"`;
  if (c.outcome === 'not-applicable' || c.outcome === 'not-run') {
    const why = c.outcome === 'not-run' ? 'not run here (another shard or plan)' : `not applicable: ${c.notApplicable ?? ''}`;
    return { xml: `${open}>\n      <skipped message="${xml(why)}"/>\n    </testcase>`, kind: 'skipped', seconds };
  }
  let verdict = '';
  let kind: CaseKind = 'pass';
  const kinds = formatKinds(c.anomalies);
  const shown = `${c.invalid} of ${c.runs.length} runs invalid${kinds === '' ? '' : ` (${kinds})`}, ${c.unknown} unknown, ${c.missingSeeds.length} missing; ${describeEvidence(c.evidence)}`;
  if (withExpectations) {
    const e = c.expectation;
    if (e !== null && !e.met) {
      kind = 'failure';
      verdict = `      <failure type="expectation" message="${xml(`expected ${e.expect} (expectation #${e.expectation}): ${e.reason}`)}">${xml(shown)}</failure>\n`;
    }
  } else if (c.outcome === 'unsafe') {
    kind = 'failure';
    verdict = `      <failure type="invalid" message="${xml(shown)}">${xml(c.runs.flatMap((r) => r.failing).join('\n'))}</failure>\n`;
  } else if (c.outcome === 'unknown' || c.outcome === 'incomplete') {
    kind = 'error';
    verdict = `      <error type="${c.outcome}" message="${xml(shown)}"/>\n`;
  } else if (c.outcome === 'untested') {
    // Valid, but nothing showed the danger occurred: not a pass. JUnit's nearest word is skipped.
    kind = 'skipped';
    verdict = `      <skipped message="${xml(`untested: ${c.untestedWhy ?? 'no evidence that the faults struck'}`)}"/>\n`;
  }
  const out = c.runs.map((r) => `seed ${r.seed}: ${r.status}${r.error ? ` (${r.error})` : ''}; run ${r.runDir ?? '-'}; replay: ${r.replay ?? '-'}`);
  for (const s of c.missingSeeds) out.push(`seed ${s}: missing`);
  return { xml: `${open}>\n${verdict}      <system-out>${xml(out.join('\n'))}</system-out>\n    </testcase>`, kind, seconds };
}

/** Text for XML content or a quoted attribute; characters XML 1.0 forbids become U+FFFD. */
export function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
