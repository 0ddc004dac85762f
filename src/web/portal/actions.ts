import type { FastifyRequest } from 'fastify';
import { AppError } from '../../contract/errors.ts';
import { isId } from '../../contract/formats.ts';
import { signAsContractor } from '../../contractors/agreements.ts';
import { submitHours } from '../../contractors/hours.ts';
import { formatHundredths } from '../../contractors/hours-wire.ts';
import { isIsoDate } from '../../invoicing/calendar.ts';
import { canonicalJson, sha256Hex } from '../../lib/canonical-json.ts';
import { idempotencySettings, runOnce } from '../../operations/run-once.ts';
import type { Services } from '../../services.ts';
import { checkCsrf } from '../dashboard/context.ts';
import { typedAmountToMinor } from '../forms.ts';
import type { PortalSigned } from './context.ts';

/** The dashboard's CSRF rule (session token in `_csrf`, Origin of this host) for portal forms. */
export function checkPortalCsrf(request: FastifyRequest, signed: PortalSigned, submitted: unknown): void {
  checkCsrf(request, signed.token, submitted);
}

function unitOptions(signed: PortalSigned, operation: string, requestId: string) {
  return {
    organizationId: signed.contractor.organizationId,
    actor: { type: 'contractor' as const, contractorId: signed.contractor.contractorId },
    operation,
    requestId,
    // The contractor's own changes are audited like a member's (decision 394).
    audit: 'required' as const,
  };
}

/**
 * Hours as people type them, `7,5` where the locale writes a decimal comma or `7.5`: the
 * dashboard's amount reader (`typedAmountToMinor`, two decimals) gives hundredths, written back
 * as the domain's `7.50`. Anything it cannot read stays as typed, so the domain refuses it by name.
 */
function typedHours(text: string): string {
  const hundredths = typedAmountToMinor(text.trim(), 2);
  return hundredths === undefined ? text.trim() : formatHundredths(BigInt(hundredths));
}

/** The contractor submits their own hours: the same domain rule as contractors.hours.submit. */
export async function portalSubmitHours(
  services: Services,
  signed: PortalSigned,
  form: URLSearchParams,
  requestId: string,
) {
  const workDate = form.get('workDate') ?? '';
  const hours = typedHours(form.get('hours') ?? '');
  const description = (form.get('description') ?? '').trim();
  if (!isIsoDate(workDate)) {
    throw new AppError('invalid_input', 'Enter the day worked as a date (YYYY-MM-DD).', {
      field: 'workDate',
    });
  }
  if (description.length < 1 || description.length > 500) {
    throw new AppError('invalid_input', 'Describe the work in 1-500 characters.', { field: 'description' });
  }
  // Each rendering of the form carries a new key: a double click or a resubmitted page replays
  // the first submission instead of recording the hours twice (the dashboard's rule).
  const submissionKey = form.get('submissionKey') ?? '';
  if (!isId(submissionKey)) {
    throw new AppError('invalid_input', 'This form is out of date; reload the page and submit it again.', {
      field: 'submissionKey',
    });
  }
  const { contractorId, organizationId } = signed.contractor;
  const input = { workDate, hours, description };
  const outcome = await runOnce(
    services,
    unitOptions(signed, 'portal.hours.submit', requestId),
    {
      organizationId,
      key: `portal:${contractorId}:${submissionKey}`,
      operation: 'portal.hours.submit',
      requestHash: sha256Hex(canonicalJson(input)),
    },
    idempotencySettings(services),
    undefined,
    (unit) => submitHours(unit, contractorId, input),
  ).catch((error: unknown) => {
    // The browser's Back button restores the form with its key: say what to do in plain words.
    if (error instanceof AppError && error.code === 'idempotency_key_reused') {
      throw new AppError(
        'idempotency_key_reused',
        'This form was already submitted with other values; reload the page to submit new hours.',
        { field: 'submissionKey' },
      );
    }
    throw error;
  });
  return outcome.body;
}

/** The contractor signs their own agreement; the client address is the connection's. */
export async function portalSign(
  services: Services,
  signed: PortalSigned,
  agreementId: string,
  form: URLSearchParams,
  request: FastifyRequest,
) {
  return signAsContractor(
    services,
    unitOptions(signed, 'portal.agreements.sign', request.id),
    signed.contractor.contractorId,
    agreementId,
    {
      fullName: form.get('fullName') ?? '',
      consent: form.get('consent') === 'on',
      clientAddress: request.ip,
      userAgent: String(request.headers['user-agent'] ?? ''),
      documentSha256: form.get('documentSha256') ?? '',
    },
  );
}
