import type { AnyOperation } from '../define.ts';
import { createInvoice } from './create.ts';
import { getInvoice } from './get.ts';
import { listInvoices } from './list.ts';
import { createPaymentPlanOperation } from './payment-plans-create.ts';
import { reschedulePaymentPlanOperation } from './payment-plans-reschedule.ts';
import { recordInvoicePayment } from './payments-record.ts';
import { invoicePdf } from './pdf.ts';
import { cancelScheduleOperation } from './schedules-cancel.ts';
import { createSchedule } from './schedules-create.ts';
import { getSchedule } from './schedules-get.ts';
import { listSchedules } from './schedules-list.ts';
import { pauseScheduleOperation } from './schedules-pause.ts';
import { resumeScheduleOperation } from './schedules-resume.ts';
import { updateScheduleOperation } from './schedules-update.ts';
import { sendInvoiceOperation } from './send.ts';
import { updateInvoice } from './update.ts';
import { voidInvoiceOperation } from './void.ts';

export const invoiceOperations = [
  listInvoices,
  getInvoice,
  createInvoice,
  updateInvoice,
  sendInvoiceOperation,
  voidInvoiceOperation,
  recordInvoicePayment,
  invoicePdf,
] as const satisfies readonly AnyOperation[];

/** Recurring invoice schedules and payment plans share one record and one set of operations. */
export const scheduleOperations = [
  listSchedules,
  getSchedule,
  createSchedule,
  updateScheduleOperation,
  pauseScheduleOperation,
  resumeScheduleOperation,
  cancelScheduleOperation,
  createPaymentPlanOperation,
  reschedulePaymentPlanOperation,
] as const satisfies readonly AnyOperation[];
