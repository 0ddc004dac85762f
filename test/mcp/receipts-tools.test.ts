import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Caller, createCaller, startTestApp, type TestApp } from '../support/app.ts';
import { ublReceipt } from '../support/receipts.ts';
import { type Connection, callTool, connectHttp, toolKey } from './helpers.ts';

// Receipts over MCP: an agent uploads, reads, takes suggestions and links by hand; it never
// confirms a consolidation, rotates the receiving address or turns on auto-matching.

describe('receipts MCP tools', () => {
  let app: TestApp;
  let admin: Caller;
  let connection: Connection;
  before(async () => {
    app = await startTestApp('sqlite');
    admin = await createCaller(app);
    connection = await connectHttp(app, admin.token);
  });
  after(async () => {
    await connection.close();
    await app.close();
  });

  it('lists the intake, inbox and matching tools, and none of the person-only ones', async () => {
    const names = new Set((await connection.client.listTools()).tools.map((t) => t.name));
    for (const tool of [
      'accounting_receipts_upload',
      'accounting_inbox_list',
      'accounting_inbox_get',
      'accounting_inbox_address_get',
      'accounting_matching_suggestions_list',
      'accounting_matching_suggestions_confirm',
      'accounting_matching_suggestions_decline',
      'accounting_matching_attach',
      'accounting_matching_detach',
      'accounting_matching_receipt_consolidation_preview',
    ]) {
      assert.ok(names.has(tool), tool);
    }
    for (const tool of [
      'accounting_matching_receipt_consolidation_confirm',
      'accounting_inbox_address_rotate',
      'accounting_matching_settings_update',
    ]) {
      assert.ok(!names.has(tool), tool);
    }
  });

  it('uploads a receipt and reads it back through the tools', async () => {
    const bytes = ublReceipt({
      id: 'MCP-1',
      merchant: 'Blue Bottle Coffee',
      date: '2026-02-02',
      amountMinor: 1190n,
    });
    const uploaded = await callTool(connection.client, 'accounting_receipts_upload', {
      fileName: 'r.xml',
      mediaType: 'application/xml',
      contentBase64: bytes.toString('base64'),
      idempotencyKey: toolKey('upload'),
    });
    assert.equal(uploaded.isError, false, uploaded.text);
    const item = uploaded.data.item as { id: string };
    await app.runJobs();
    const got = await callTool(connection.client, 'accounting_inbox_get', { id: item.id });
    assert.equal(got.data.state, 'ready');
    assert.equal(got.data.merchant, 'Blue Bottle Coffee');
    const listed = await callTool(connection.client, 'accounting_inbox_list', { limit: 5 });
    assert.deepEqual(
      (listed.data.items as { id: string }[]).map((i) => i.id),
      [item.id],
    );
  });
});
