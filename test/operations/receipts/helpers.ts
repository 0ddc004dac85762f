import assert from 'node:assert/strict';
import type { Caller, TestApp } from '../../support/app.ts';
import { type ApiResponse, call } from '../../support/http.ts';

export interface UploadedItem {
  id: string;
  state: string;
  revision: number;
  entry_id: string | null;
  file_id: string;
  [key: string]: unknown;
}

export function upload(
  app: TestApp,
  caller: Caller,
  bytes: Buffer,
  fileName: string,
  mediaType: string,
): Promise<ApiResponse> {
  return call(
    app.baseUrl,
    'receipts.upload',
    { fileName, mediaType, contentBase64: bytes.toString('base64') },
    { token: caller.token },
  );
}

/** Uploads and runs the background jobs, returning the item as inbox.get shows it afterwards. */
export async function uploadAndProcess(
  app: TestApp,
  caller: Caller,
  bytes: Buffer,
  fileName: string,
  mediaType: string,
): Promise<UploadedItem> {
  const res = await upload(app, caller, bytes, fileName, mediaType);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { item } = res.data as { item: UploadedItem };
  await app.runJobs();
  const got = await call(app.baseUrl, 'inbox.get', { id: item.id }, { token: caller.token });
  assert.equal(got.status, 200);
  return got.data as UploadedItem;
}
