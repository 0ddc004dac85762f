import type { AnyOperation } from '../define.ts';
import { cancelScheduleOperation } from './cancel.ts';
import { createSchedule } from './create.ts';
import { getSchedule } from './get.ts';
import { listSchedules } from './list.ts';
import { pauseScheduleOperation } from './pause.ts';
import { createPaymentPlanOperation } from './plans-create.ts';
import { reschedulePaymentPlanOperation } from './plans-reschedule.ts';
import { resumeScheduleOperation } from './resume.ts';
import { updateScheduleOperation } from './update.ts';

/** Recurring invoice schedules and payment plans share one record and one set of operations. */
export const scheduleOperations: readonly AnyOperation[] = [
  listSchedules,
  getSchedule,
  createSchedule,
  updateScheduleOperation,
  pauseScheduleOperation,
  resumeScheduleOperation,
  cancelScheduleOperation,
  createPaymentPlanOperation,
  reschedulePaymentPlanOperation,
];
