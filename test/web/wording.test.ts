import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldWords, inWords, refusalTitle } from '../../src/web/dashboard/wording.ts';

const finance = { role: 'finance', organizationName: 'Acme GmbH' };

describe('refusals in words for the dashboard', () => {
  it('says which role may, never the operation name', () => {
    const words = inWords(
      {
        code: 'role_not_allowed',
        message: 'The finance role may not call admin.members.list.',
        details: { allowed_roles: ['admin'] },
      },
      finance,
    );
    assert.equal(
      words,
      'Only a member with the admin role can do this; your role is finance. Ask an admin of Acme GmbH to do it, or to change your role.',
    );
    assert.doesNotMatch(words, /admin\.members/);
  });

  it('names a restricted field by its label', () => {
    const words = inWords(
      {
        code: 'role_not_allowed',
        message: 'Only the admin role may change email.',
        field: 'email',
        details: { allowed_roles: ['admin'] },
      },
      { ...finance, label: 'E-mail' },
    );
    assert.match(words, /^Only a member with the admin role can change E-mail; your role is finance\./);
  });

  it('says file type refusals as what the file is', () => {
    const words = inWords(
      {
        code: 'invalid_file',
        message:
          'the content is not the pdf its name or type claims. Accepted: PDF (with or without embedded Factur-X/ZUGFeRD XML), JPEG, PNG, WebP, UBL 2.1 or UN/CEFACT CII XML.',
        field: 'contentBase64',
        details: { reason: 'type_mismatch' },
      },
      finance,
    );
    assert.match(words, /^This file is not really a PDF/);
    assert.match(
      inWords(
        { code: 'invalid_file', message: 'the content is not the xml its name or type claims. Accepted: …' },
        finance,
      ),
      /^This file is not really an XML:/,
    );
    assert.doesNotMatch(words, /contentBase64|field/);
    assert.equal(
      inWords(
        {
          code: 'invalid_file',
          message: 'The file is not a PDF document (its content does not match application/pdf).',
          field: 'contentBase64',
        },
        finance,
      ),
      'This file is not really a PDF document: its name or type says so, but its content is something else. Choose the original file.',
    );
    assert.match(
      inWords({ code: 'invalid_file', message: 'x', details: { reason: 'unsupported_type' } }, finance),
      /cannot be read\. Choose a PDF/,
    );
  });

  it('turns validation messages into sentences about the label', () => {
    const cases: ReadonlyArray<readonly [string, string, string | undefined, string]> = [
      ['name', 'name is required.', 'Name', 'Fill in Name.'],
      ['jobRoleId', 'jobRoleId must be a UUID.', undefined, 'Choose job role from the list offered.'],
      [
        'hourlyRateMinor',
        'hourlyRateMinor must be a decimal string of minor units from 0 to 9007199254740991.',
        'Hourly rate',
        'Hourly rate must be an amount, typed as printed (for example 23,80 or 1,234.56).',
      ],
      [
        'kind',
        'kind must be one of: "expense", "income".',
        'Kind',
        'Choose one of the values offered for Kind.',
      ],
      [
        'country',
        'country must be two uppercase letters (ISO 3166-1 alpha-2 country).',
        'Country',
        'Country must be a two-letter country code, such as DE or FR.',
      ],
      [
        'name',
        'name must NOT have more than 200 characters.',
        'Name',
        'Name is too long: at most 200 characters.',
      ],
    ];
    for (const [field, message, label, expected] of cases) {
      assert.equal(
        inWords({ code: 'invalid_input', message, field }, { ...finance, label }),
        expected,
        message,
      );
    }
  });

  it('replaces the field name in a message it does not know', () => {
    assert.equal(
      inWords(
        { code: 'invalid_input', message: 'The code 6450 is taken; codes are unique (code).', field: 'code' },
        { ...finance, label: 'Code' },
      ),
      'The code 6450 is taken; codes are unique (code).',
    );
    assert.equal(
      inWords(
        {
          code: 'invalid_input',
          message: 'hourlyRateMinor is above the limit for CAD.',
          field: 'hourlyRateMinor',
        },
        { ...finance, label: 'Hourly rate' },
      ),
      'Hourly rate is above the limit for CAD.',
    );
    // A domain message with no field is the API's own.
    assert.equal(
      inWords({ code: 'payout_empty', message: 'No approved hours are waiting for a payout.' }, finance),
      'No approved hours are waiting for a payout.',
    );
  });

  it('leaves operation names out of messages written for programs', () => {
    assert.equal(
      inWords(
        {
          code: 'invalid_state',
          message:
            'Only payment plans can be rescheduled; change a recurring schedule with invoices.schedules.update.',
        },
        finance,
      ),
      'Only payment plans can be rescheduled; change a recurring schedule.',
    );
    assert.match(
      inWords(
        {
          code: 'rate_missing',
          message:
            'The contractor has no job role, so no hourly rate; assign a role with contractorOps.roles.assign.',
          field: 'contractorId',
        },
        finance,
      ),
      /^This contractor has no job role yet/,
    );
    // A decimal or a file name is not an operation.
    assert.equal(
      inWords({ code: 'invalid_state', message: 'Send agreement.pdf with 7.25 hours.' }, finance),
      'Send agreement.pdf with 7.25 hours.',
    );
  });

  it('says a choice that cannot be used as the member chose it', () => {
    assert.equal(
      inWords(
        { code: 'not_found', message: 'Card not found.', field: 'cardId' },
        { ...finance, label: 'Card' },
      ),
      'The card you chose cannot be used: it was removed meanwhile, or it does not go with your other choices. Choose another one.',
    );
  });

  it('says conflicts, expired forms and server trouble without internals', () => {
    assert.match(
      inWords({ code: 'revision_conflict', message: 'expectedRevision 3 is stale' }, finance),
      /Someone changed this record/,
    );
    assert.match(inWords({ code: 'csrf_failed', message: 'token' }, finance), /reload the page/);
    assert.match(
      inWords({ code: 'internal_error', message: 'An internal error occurred.' }, finance),
      /quote the request id/,
    );
    assert.match(
      inWords({ code: 'rate_limited', message: 'x', retryAfterSeconds: 7 }, finance),
      /Wait 7 seconds/,
    );
  });

  it('names fields a member never sees as what they are', () => {
    assert.equal(fieldWords('contentBase64'), 'the file');
    assert.equal(fieldWords('lines.0.amountMinor'), 'amount');
    assert.equal(fieldWords('invoiceNumberPrefix'), 'invoice number prefix');
    assert.equal(fieldWords('jobRoleId'), 'job role');
    assert.equal(fieldWords('name', ' Name '), 'Name');
  });

  it('titles the error page by what happened', () => {
    assert.equal(refusalTitle('csrf_failed', 403), 'This form has expired');
    assert.equal(refusalTitle('role_not_allowed', 403), 'You cannot do this');
    assert.equal(refusalTitle('internal_error', 500), 'Something went wrong');
    assert.equal(refusalTitle('not_found', 404), 'Page not found');
  });
});
