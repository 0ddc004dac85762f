import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNTING_SCOPES } from '../../src/contract/access.ts';
import { upload } from '../operations/mail/helpers.ts';
import { createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { DIALECTS } from '../support/databases.ts';
import { callTool, connectHttp } from './helpers.ts';

/**
 * Company mail over MCP (decision 203): tools are listed only to a key holding the mail scopes,
 * so an accounting-only agent never sees them; upload and download (file bytes) are not tools.
 * A read through a tool is recorded like one over HTTP, and no tool description names a sender
 * or subject.
 */
const MAIL_TOOLS = [
  'accounting_mail_address_get',
  'accounting_mail_address_rotate',
  'accounting_mail_items_archive',
  'accounting_mail_items_get',
  'accounting_mail_items_list',
  'accounting_mail_items_mark_read',
];

for (const dialect of DIALECTS) {
  describe(`MCP mail tools (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp(dialect);
    });
    after(() => app?.close());

    it('an accounting-only key sees no mail tool; a mail key sees the mail tools but neither upload nor download', async () => {
      const accounting = await createCaller(app, { scopes: ACCOUNTING_SCOPES });
      const mail = await createCaller(app, { scopes: ['mail:read', 'mail:write'] });
      const accountingConnection = await connectHttp(app, accounting.token);
      const mailConnection = await connectHttp(app, mail.token);
      try {
        const accountingTools = (await accountingConnection.client.listTools()).tools.map((t) => t.name);
        assert.deepEqual(
          accountingTools.filter((name) => name.includes('_mail_')),
          [],
        );
        const mailTools = (await mailConnection.client.listTools()).tools;
        const names = mailTools
          .map((t) => t.name)
          .filter((name) => name.includes('_mail_'))
          .sort();
        assert.deepEqual(names, MAIL_TOOLS);
        const refused = await callTool(accountingConnection.client, 'accounting_mail_items_list', {});
        assert.equal(refused.isError, true);

        const letter = await upload(app, mail, { sender: 'Zeta Bank', subject: 'Card statement' });
        const got = await callTool(mailConnection.client, 'accounting_mail_items_get', {
          id: letter.data.id,
        });
        assert.equal(got.isError, false, got.text);
        const reads = (got.data.reads ?? (got.data.data as { reads?: unknown })?.reads) as Array<{
          operation: string;
        }>;
        assert.equal(reads[0]?.operation, 'mail.items.get');
        const descriptions = JSON.stringify(mailTools);
        assert.ok(!descriptions.includes('Zeta Bank') && !descriptions.includes('Card statement'));
      } finally {
        await accountingConnection.close();
        await mailConnection.close();
      }
    });
  });
}
