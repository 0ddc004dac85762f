import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { formToInput, typedAmountToMinor } from '../../src/web/forms.ts';

describe('amounts typed as people write them', () => {
  const cases: ReadonlyArray<readonly [string, number, string | undefined]> = [
    ['23.80', 2, '2380'],
    ['23,80', 2, '2380'],
    ['6,25', 2, '625'],
    ['1,234.56', 2, '123456'],
    ['1.234,56', 2, '123456'],
    ['1 234,5', 2, '123450'],
    ["1'234.50", 2, '123450'],
    ['-5', 2, '-500'],
    ['-0', 2, '0'],
    ['1,234', 2, '123400'],
    ['1.000.000', 2, '100000000'],
    ['1,234', 3, '1234'],
    ['100', 0, '100'],
    ['1.5', 0, undefined],
    ['12.3456', 2, undefined],
    ['1,2,3', 2, undefined],
    ['1.', 2, undefined],
    ['.5', 2, undefined],
    ['', 2, undefined],
    ['12 EUR', 2, undefined],
  ];
  for (const [text, exponent, minor] of cases) {
    it(`${JSON.stringify(text)} with ${exponent} decimals -> ${String(minor)}`, () => {
      assert.equal(typedAmountToMinor(text, exponent), minor);
    });
  }

  it('converts the fields a form names in _amounts, by the currency field beside them', () => {
    const schema = Type.Object({ totalMinor: Type.String(), currency: Type.String(), note: Type.String() });
    const form = new URLSearchParams({
      totalMinor: '1.234,5',
      currency: 'jpy',
      note: '1,5',
      _amounts: 'totalMinor:currency',
    });
    // JPY has no decimals: "1.234,5" is not a yen amount, refused in words naming the field.
    assert.throws(
      () => formToInput(form, schema),
      (e: { code?: string; field?: string; message?: string }) =>
        e.code === 'invalid_input' &&
        e.field === 'totalMinor' &&
        /"1\.234,5" is not an amount: .*this currency has no cents/.test(e.message ?? ''),
    );
    form.set('currency', 'EUR');
    assert.deepEqual(formToInput(form, schema), { totalMinor: '123450', currency: 'EUR', note: '1,5' });
  });

  it("takes the record's own currency when the form names a code instead of a field", () => {
    const schema = Type.Object({ amountMinor: Type.String() });
    const amount = (code: string) =>
      formToInput(new URLSearchParams({ amountMinor: '1.234,5', _amounts: `amountMinor:${code}` }), schema);
    assert.deepEqual(amount('CAD'), { amountMinor: '123450' });
    assert.deepEqual(amount('BHD'), { amountMinor: '1234500' }, 'three decimals');
  });
});

describe('fields a form may clear', () => {
  const schema = Type.Object({
    jobRoleId: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    name: Type.String(),
  });

  it('sends an empty field named in _null as null, and leaves other empty fields out', () => {
    const form = new URLSearchParams({ jobRoleId: '', description: '', name: '', _null: 'jobRoleId' });
    assert.deepEqual(formToInput(form, schema), { jobRoleId: null });
  });

  it('keeps a value typed into a field named in _null, and ignores names the form does not carry', () => {
    const form = new URLSearchParams({ jobRoleId: 'r1', _null: 'jobRoleId, description' });
    assert.deepEqual(formToInput(form, schema), { jobRoleId: 'r1' });
  });
});

describe('fields a settings form may clear', () => {
  it('an emptied field named in _null becomes null; other empty fields are left out', () => {
    const schema = Type.Object({
      name: Type.String(),
      legalName: Type.Union([Type.String(), Type.Null()]),
      days: Type.Union([Type.Integer(), Type.Null()]),
      prefix: Type.String(),
    });
    const form = new URLSearchParams({
      name: 'Acme',
      legalName: ' ',
      days: '',
      prefix: '',
      _null: 'legalName,days',
    });
    assert.deepEqual(formToInput(form, schema), { name: 'Acme', legalName: null, days: null });
    form.set('days', '30');
    form.set('legalName', 'Acme GmbH');
    assert.deepEqual(formToInput(form, schema), { name: 'Acme', legalName: 'Acme GmbH', days: 30 });
  });
});
