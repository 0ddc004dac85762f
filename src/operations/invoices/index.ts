import type { AnyOperation } from '../define.ts';
import { createInvoice } from './create.ts';
import { getInvoice } from './get.ts';
import { listInvoices } from './list.ts';
import { recordInvoicePayment } from './payments-record.ts';
import { invoicePdf } from './pdf.ts';
import { sendInvoiceOperation } from './send.ts';
import { updateInvoice } from './update.ts';
import { voidInvoiceOperation } from './void.ts';

export const invoiceOperations: readonly AnyOperation[] = [
  listInvoices,
  getInvoice,
  createInvoice,
  updateInvoice,
  sendInvoiceOperation,
  voidInvoiceOperation,
  recordInvoicePayment,
  invoicePdf,
];
