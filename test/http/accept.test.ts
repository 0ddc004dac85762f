import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prefersMediaType } from '../../src/http/accept.ts';

describe('Accept negotiation for file forms', () => {
  const cases: Array<[string | undefined, boolean]> = [
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['application/*', false],
    ['text/html', false],
    ['application/pdf', true],
    ['APPLICATION/PDF', true],
    ['application/pdf;q=0', false],
    ['application/pdf, */*', true],
    ['application/pdf, application/json', false],
    ['application/json, application/pdf', false],
    ['application/pdf, application/json;q=0.9', true],
    ['application/pdf;q=0.5, application/json', false],
    ['application/pdf;q=0.1, */*', false],
    ['application/*;q=0.2, application/pdf;q=0.3', true],
    ['application/json;q=0, */*', true],
    ['application/json;q=0, application/pdf;q=0.001', true],
    ['garbage, application/pdf', true],
    ['application/pdf;q=abc', true],
  ];
  for (const [accept, expected] of cases) {
    it(`${JSON.stringify(accept)} -> ${expected ? 'file' : 'JSON'}`, () => {
      assert.equal(prefersMediaType(accept, 'application/pdf'), expected);
    });
  }
});
