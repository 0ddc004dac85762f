/** An event to record in the outbox; the envelope (id, created, organizationId) is added by the recorder. */
export interface EventInput {
  type: string;
  subject: { type: string; id: string } | null;
  data: Record<string, unknown>;
}
