import type { AttemptContext } from '../attempt.ts';

/** The claim UPDATE's row; the `ev_` and `ep_` columns only on PostgreSQL, null when gone. */
export interface ClaimRow {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  attempt_count: number;
  attempt_limit: number | null;
  ev_id?: string | null;
  ev_type?: AttemptContext['type'] | null;
  ev_organization_id?: string | null;
  ev_subject_type?: AttemptContext['subject_type'];
  ev_subject_id?: AttemptContext['subject_id'];
  ev_data?: AttemptContext['data'];
  ev_created_at?: AttemptContext['created_at'];
  ep_url?: string | null;
  ep_secret?: string | null;
  ep_previous_secret?: AttemptContext['previous_secret'];
  ep_previous_secret_until?: AttemptContext['previous_secret_until'];
  ep_status?: AttemptContext['endpoint_status'] | null;
}

/** The claimed delivery's event and endpoint, in the shape of attempt.ts's context query. */
export function contextOf(row: ClaimRow): AttemptContext | null {
  if (
    row.ev_id == null ||
    row.ev_type == null ||
    row.ev_organization_id == null ||
    row.ep_url == null ||
    row.ep_secret == null ||
    row.ep_status == null
  )
    return null;
  return {
    delivery_id: row.id,
    id: row.ev_id,
    type: row.ev_type,
    organization_id: row.ev_organization_id,
    subject_type: row.ev_subject_type ?? null,
    subject_id: row.ev_subject_id ?? null,
    data: row.ev_data as AttemptContext['data'],
    created_at: row.ev_created_at as AttemptContext['created_at'],
    url: row.ep_url,
    secret: row.ep_secret,
    previous_secret: row.ep_previous_secret ?? null,
    previous_secret_until: row.ep_previous_secret_until ?? null,
    endpoint_status: row.ep_status,
  };
}
