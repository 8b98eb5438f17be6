/**
 * A FileCheck as it crosses from a worker thread to the main one. Results,
 * witnesses and warnings are plain data (a structured clone keeps them
 * exactly, Infinity included); an error is a class instance whose own fields
 * a structured clone drops, so it travels as the fields the check command
 * reads (code, message, hint, exit code) and is built again.
 */
import { FencecheckError, type ExitCode } from '../../core/errors.js';
import type { FileCheck } from './check-files.js';

interface ErrorFields {
  name: string;
  code: string;
  message: string;
  hint: string | undefined;
  exitCode: ExitCode;
}

export type FileCheckMessage = Omit<FileCheck, 'error'> & { error?: ErrorFields };

export function toMessage(c: FileCheck): FileCheckMessage {
  if (!c.error) return c as FileCheckMessage;
  const e = c.error;
  return { ...c, error: { name: e.name, code: e.code, message: e.message, hint: e.hint, exitCode: e.exitCode } };
}

export function fromMessage(m: FileCheckMessage): FileCheck {
  if (!m.error) return m as FileCheck;
  const e = m.error;
  const error = new FencecheckError(e.code, e.message, { ...(e.hint !== undefined ? { hint: e.hint } : {}), exitCode: e.exitCode });
  error.name = e.name;
  return { ...m, error };
}
