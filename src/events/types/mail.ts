import { Type } from 'typebox';
import type { EventDefinition } from '../definition.ts';

const Channel = Type.Union([Type.Literal('post'), Type.Literal('email')], {
  description: '`post` (a scan uploaded) or `email` (a message to the company mail address).',
});

/**
 * Company mail. The contract: mail events never include sender, subject or content. They carry
 * the letter's id (the subject), its channel, dates and counts; a receiver that may read letters
 * fetches one with mail.items.get, which records the read.
 */
export const mailEvents: readonly EventDefinition[] = [
  {
    type: 'mail.received',
    subjectType: 'mail_item',
    description:
      'A letter arrived: a scan uploaded (mail.items.upload) or a message received at the company mail address. Never sender, subject or content.',
    data: Type.Object(
      {
        channel: Channel,
        receivedAt: Type.String({ format: 'date-time', description: 'When the letter was received.' }),
        fileCount: Type.Integer({
          description: 'Number of files (a PDF, page images, or a message and its attachments).',
        }),
        sizeBytes: Type.Integer({ description: 'Total size of the files in bytes.' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    type: 'mail.archived',
    subjectType: 'mail_item',
    description: 'A letter was archived (mail.items.archive). Never sender, subject or content.',
    data: Type.Object(
      {
        channel: Channel,
        receivedAt: Type.String({ format: 'date-time', description: 'When the letter was received.' }),
        archivedAt: Type.String({ format: 'date-time', description: 'When it was archived.' }),
        fileCount: Type.Integer({ description: 'Number of files of the letter.' }),
      },
      { additionalProperties: false },
    ),
  },
];
