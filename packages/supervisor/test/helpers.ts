import type { Logger } from '@procmux/core-types';
import { rejectionOf } from '@procmux/test-utils';

export interface LoggedWarning {
  message: string;
  fields: Readonly<Record<string, unknown>> | undefined;
}

/** A logger that keeps what it is told, for assertions. */
export function recordingLogger(): { logger: Logger; warnings: LoggedWarning[] } {
  const warnings: LoggedWarning[] = [];
  return {
    warnings,
    logger: {
      warn(message, fields) {
        warnings.push({ message, fields });
      },
    },
  };
}

/** The error a promise rejects with; fails when it fulfils. */
export const rejection = rejectionOf;
