/**
 * `mergeCompare`: one matrix from the compare directories (and run
 * directories) of many machines, its four outputs written to `outDir`. Every
 * run of every spec seen is planned, so what did not arrive counts as missing.
 */
import { buildCompareReport, type CompareReport } from './compare-report.js';
import { matrixCells } from './compare-spec.js';
import { assertExpectationsMatch } from './evaluate-expectations.js';
import type { Expectation } from './expectations.js';
import { findCompareInputs } from './find-compare-inputs.js';
import { gatherMatrix, sourceRuns } from './gather-matrix.js';
import { writeCompareOutputs } from './write-compare-outputs.js';

export interface MergeResult {
  report: CompareReport;
  /** The path of compare.html. */
  html: string;
  compareDirs: number;
  runDirs: number;
}

/** `expect`: the expectations and the file they came from; refused (254) before anything is written when they name no cell. */
export function mergeCompare(
  paths: readonly string[],
  outDir: string,
  expect: { list: readonly Expectation[]; file: string } | null,
  generatedAt: string,
): MergeResult {
  const inputs = findCompareInputs(paths);
  const matrix = gatherMatrix(inputs.sources, [...sourceRuns(inputs.sources), ...inputs.looseRuns], 'whole');
  if (expect !== null) assertExpectationsMatch(expect.list, matrixCells(matrix.backends, matrix.resources, matrix.nemeses), expect.file);
  const expectations = expect?.list ?? null;
  matrix.warnings.unshift(...inputs.warnings);
  const report = buildCompareReport(matrix, expectations, { outDir, generatedAt });
  return { report, html: writeCompareOutputs(outDir, report), compareDirs: inputs.sources.length, runDirs: inputs.looseRuns.length };
}
