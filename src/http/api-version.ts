import type { FastifyRequest } from 'fastify';
import { AppError } from '../contract/errors.ts';
import { SUPPORTED_API_VERSIONS } from '../contract/version.ts';

/**
 * A client may pin the contract date it was written against. Absent: the current date applies.
 * An unknown date is refused rather than served under another contract the client never read.
 * Only the API and MCP paths are concerned: health checks and HTML pages take no version.
 */
export function checkApiVersion(request: FastifyRequest): void {
  const raw = request.headers['x-accounting-api-version'];
  if (raw === undefined) return;
  const path = request.url.split('?')[0] ?? '';
  if (!path.startsWith('/api/') && path !== '/mcp') return;
  const value = (Array.isArray(raw) ? raw.join(',') : raw).trim();
  if (SUPPORTED_API_VERSIONS.includes(value)) return;
  throw new AppError(
    'unsupported_api_version',
    `X-Accounting-API-Version ${JSON.stringify(value.slice(0, 40))} is not supported; supported contract dates: ${SUPPORTED_API_VERSIONS.join(', ')}.`,
    { details: { supported_versions: [...SUPPORTED_API_VERSIONS] } },
  );
}
