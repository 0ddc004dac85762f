import { AppError } from '../contract/errors.ts';
import { Sandbox, SandboxFailure, type SandboxLimits, SandboxTaskError } from '../lib/sandbox/index.ts';
import type { SignatureFacts } from './agreement-pdf.ts';
import type { RenderJob } from './agreement-sandbox-child.ts';

// The signed agreement is rendered in a sandbox child (src/lib/sandbox): the uploaded template
// (a PDF up to 5 MiB, its inflation capped) and drafts of up to 200,000 characters are read there,
// so neither can take the service's memory or event loop.

/** A 5 MiB template with its signature page renders in well under these; tests lower them. */
export const agreementSandboxLimits: SandboxLimits = {
  memoryMb: 768,
  heapMb: 384,
  timeoutMs: 30_000,
  maxOutputBytes: 64 * 1024 * 1024,
};

const sandbox = new Sandbox(
  {
    compiled: 'agreement-sandbox.mjs',
    source: new URL('./agreement-sandbox-child.ts', import.meta.url),
    from: import.meta.url,
  },
  1,
);

const REASONS = {
  parse_memory_limit: 'it needs more memory than a document may take',
  parse_timeout: 'it takes longer than a document may take',
  parse_output_too_large: 'the signed PDF would be too large',
  parse_crashed: 'the renderer stopped on it',
} as const;

export async function renderSignedPdfInSandbox(document: Buffer, facts: SignatureFacts): Promise<Buffer> {
  const job: RenderJob = { document, facts };
  try {
    return Buffer.from(await sandbox.run<Uint8Array>('render', job, { ...agreementSandboxLimits }));
  } catch (error) {
    if (error instanceof SandboxFailure) {
      throw new AppError(
        'invalid_file',
        `The agreement's document cannot be rendered: ${REASONS[error.code]}.`,
        {
          details: { reason: error.code },
        },
      );
    }
    if (
      error instanceof SandboxTaskError &&
      error.errorName === 'AppError' &&
      error.code === 'invalid_file'
    ) {
      // The only AppError the renderer raises: a template whose streams inflate past the caps.
      throw new AppError('invalid_file', error.message, { details: { reason: 'decompression_limit' } });
    }
    throw error;
  }
}
