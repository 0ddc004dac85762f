import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Role } from '../../src/contract/access.ts';
import { actionOrRole, rolesFor } from '../../src/web/dashboard/components.ts';
import type { Signed } from '../../src/web/dashboard/context.ts';
import { html } from '../../src/web/html.ts';

/**
 * Issue 27 part 5: where a member may not run an action, the dashboard says what is missing (the
 * role it needs and theirs) instead of a button that can only fail. The roles come from the
 * catalog, so the page and the operation cannot disagree.
 */
function viewer(role: Role): Signed {
  return {
    principal: { role },
    viewer: { role, organizationName: 'Acme GmbH' },
  } as unknown as Signed;
}

const form = () => html`<form>the action</form>`;

describe('actions a role may not run', () => {
  it('an admin-only action shown to a finance member names the admin role and theirs', () => {
    assert.deepEqual(rolesFor('matching.settings.update'), ['admin']);
    const text = String(actionOrRole(viewer('finance'), 'matching.settings.update', 'change matching', form));
    assert.doesNotMatch(text, /the action/);
    assert.match(text, /You cannot change matching:<\/strong> it needs the admin role and yours is finance/);
    assert.match(text, /Ask an admin of Acme GmbH/);
    assert.match(String(actionOrRole(viewer('admin'), 'matching.settings.update', 'x', form)), /the action/);
  });

  it('a consolidation and a read may be confirmed by an admin and a finance member (decision 332)', () => {
    for (const operation of [
      'matching.receiptConsolidation.confirm',
      'inbox.confirm',
      'matching.suggestions.confirm',
    ]) {
      for (const role of ['admin', 'finance'] as const) {
        assert.match(
          String(actionOrRole(viewer(role), operation, 'confirm', form)),
          /the action/,
          `${operation} ${role}`,
        );
      }
    }
  });

  it('an operation the catalog does not know is never offered', () => {
    const text = String(actionOrRole(viewer('admin'), 'no.such.operation', 'do it', form));
    assert.match(text, /You cannot do it<\/strong> here/);
    assert.doesNotMatch(text, /the action/);
  });
});
