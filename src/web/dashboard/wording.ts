/**
 * The dashboard's words for a refusal (issue 30 part 5): the API's message is written for a
 * program (field paths, operation names, patterns), a member reads a form. This is presentation
 * only: the API, MCP and the error code keep their messages; the page shows the code and request
 * id beside these words for support. Pure, so every case is unit-tested.
 */

/** What the dashboard knows of a refusal: the contract's error, as the operation threw it. */
export interface RefusalFacts {
  code: string;
  message: string;
  field?: string | undefined;
  details?: Readonly<Record<string, unknown>> | undefined;
  retryAfterSeconds?: number | undefined;
}

/** Who reads it, and what the form calls the field (its label), when the form is known. */
export interface Reader {
  role: string;
  organizationName: string;
  /** The label the member sees for the field the error names, if the form has one. */
  label?: string | undefined;
  /** What the member was doing, for a role refusal ("open this page"); "do this" by default. */
  doing?: string | undefined;
  /** The kind of control that field is on the page (a box to tick, a list, a file). */
  control?: 'text' | 'checkbox' | 'select' | 'file' | undefined;
}

/**
 * Field names a member never sees, as the thing they are on the page. Other names read as their
 * words (`hourlyRateMinor` -> "hourly rate", `jobRoleId` -> "job role").
 */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  contentBase64: 'the file',
  fileName: "the file's name",
  mediaType: "the file's type",
  expectedRevision: 'the version of the record you saw',
  idempotencyKey: "the form's one-time key",
  totalMinor: 'total',
  amountMinor: 'amount',
};

/** A field path (`lines.0.amountMinor`) as words; the label from the form wins when there is one. */
export function fieldWords(field: string, label?: string): string {
  if (label?.trim()) return label.trim();
  const last =
    field
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? field;
  const known = FIELD_WORDS[last];
  if (known) return known;
  return last
    .replace(/(Minor|Base64|Id|Ids)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "admin", "admin or finance": the roles that may, from the refusal's details. */
function allowedRoles(details: RefusalFacts['details']): string | undefined {
  const roles = details?.allowed_roles;
  if (!Array.isArray(roles) || roles.length === 0) return undefined;
  return roles.map(String).join(' or ');
}

/** What the validator said after the field's name, as the member reads it. */
function validationWords(rest: string, name: string, control: Reader['control']): string | undefined {
  if (control === 'checkbox' && /^(is required|must be true)\.?$/.test(rest))
    return `Tick “${name}” to go on.`;
  if (control === 'select' && /^is required\.?$/.test(rest)) return `Choose ${name}.`;
  if (control === 'file' && /^is required\.?$/.test(rest)) return 'Choose a file first.';
  if (/^is required\.?$/.test(rest)) return `Fill in ${name}.`;
  if (/^is not an accepted field\.?$/.test(rest))
    return `This form sent ${name}, which this action does not take. Reload the page and try again.`;
  if (/^must be a UUID\.?$/.test(rest)) return `Choose ${name} from the list offered.`;
  if (/^must be a decimal string of minor units/.test(rest))
    return `${capital(name)} must be an amount, typed as printed (for example 23,80 or 1,234.56).`;
  if (/^must be a date as YYYY-MM-DD/.test(rest))
    return `${capital(name)} must be a date (${rest.replace(/^must be a date as YYYY-MM-DD ?/, '').replace(/\.$/, '') || 'a real day'}).`;
  if (/^must be a timestamp/.test(rest)) return `${capital(name)} must be a date and time.`;
  if (/^must be one of: /.test(rest)) return `Choose one of the values offered for ${name}.`;
  if (/^must be two uppercase letters/.test(rest))
    return `${capital(name)} must be a two-letter country code, such as DE or FR.`;
  if (/^must be (text that is not blank|one line of text)/.test(rest))
    return `${capital(name)} must be one line of text, not blank.`;
  if (/^must match the pattern /.test(rest)) return `${capital(name)} is not in a form this field accepts.`;
  if (/^must NOT have more than (\d+) characters/.test(rest))
    return `${capital(name)} is too long: at most ${/(\d+)/.exec(rest)?.[1]} characters.`;
  if (/^must NOT have fewer than 1 characters/.test(rest)) return `Fill in ${name}.`;
  if (/^must be (integer|number)/.test(rest)) return `${capital(name)} must be a number.`;
  if (/^must be <= (\d+)/.test(rest)) return `${capital(name)} must be at most ${/(\d+)/.exec(rest)?.[1]}.`;
  if (/^must be >= (\d+)/.test(rest)) return `${capital(name)} must be at least ${/(\d+)/.exec(rest)?.[1]}.`;
  return undefined;
}

/** A file the service refused, said as what the file is (not the field that carried it). */
function fileWords(facts: RefusalFacts): string | undefined {
  const reason = facts.details?.reason;
  const claimed = /the content is not the (\w+) its name or type claims/.exec(facts.message)?.[1];
  if (reason === 'type_mismatch' || claimed) {
    const kind = claimed ? claimed.toUpperCase() : 'the type it says';
    // "an XML", "a PDF": the article by how the letters are said.
    const article = claimed && /^[AEFHILMNORSX]/.test(kind) ? 'an' : 'a';
    return `This file is not really ${claimed ? article : 'of'} ${kind}: its name or type says so, but its content is something else. Choose the original file (a PDF, a photo as JPEG, PNG or WebP, or an e-invoice XML).`;
  }
  const template = /^The file is not (an? [^(]+?) \(its content does not match/.exec(facts.message)?.[1];
  if (template)
    return `This file is not really ${template}: its name or type says so, but its content is something else. Choose the original file.`;
  if (reason === 'unsupported_type')
    return 'This kind of file cannot be read. Choose a PDF, a photo (JPEG, PNG or WebP) or an e-invoice XML.';
  if (reason === 'empty_file' || /^The file is empty\.?$/.test(facts.message))
    return 'This file is empty. Choose the file again; it may not have finished saving.';
  if (/is not valid base64/.test(facts.message))
    return 'The file did not arrive whole. Choose it again and send the form once more.';
  return undefined;
}

/**
 * The refusal in words for the member: who may do it (never the operation's name), the field as
 * its label, files by what they are. A message without a known shape is the API's own, with the
 * field's name replaced by its label.
 */
export function inWords(facts: RefusalFacts, reader: Reader): string {
  const name = facts.field ? fieldWords(facts.field, reader.label) : undefined;
  switch (facts.code) {
    case 'role_not_allowed': {
      const roles = allowedRoles(facts.details);
      const what = name ? `change ${name}` : (reader.doing ?? 'do this');
      return roles
        ? `Only a member with the ${roles} role can ${what}; your role is ${reader.role}. Ask an admin of ${reader.organizationName} to do it, or to change your role.`
        : `Your role (${reader.role}) cannot ${what}. Ask an admin of ${reader.organizationName}.`;
    }
    case 'dashboard_only':
    case 'insufficient_scope':
      return `You cannot do this from here. Ask an admin of ${reader.organizationName}.`;
    case 'csrf_failed':
      return 'This form is too old to send (your session changed since the page was opened), or it came from another site. Nothing was changed: reload the page and try again.';
    case 'revision_conflict':
      return 'Someone changed this record after you opened the page, so nothing was saved. What you typed is kept here and the page shows the record as it is now: check both and send again.';
    case 'not_found':
      return name
        ? `${capital(/^the /i.test(name) ? name.toLowerCase() : `the ${name.toLowerCase()}`)} you chose cannot be used: it was removed meanwhile, or it does not go with your other choices. Choose another one.`
        : 'This record no longer exists, or it belongs to another organization. Go back to the list and choose again.';
    case 'idempotency_in_progress':
      return 'This form is still being sent. Wait a moment, then reload the page.';
    case 'idempotency_key_reused':
    case 'idempotency_key_mismatch':
    case 'idempotency_key_required':
      return 'This form was already sent with other values. Reload the page and send it again.';
    case 'rate_limited':
      return `Too many requests in a short time. Wait ${facts.retryAfterSeconds ?? 'a few'} seconds, then send it again.`;
    case 'payload_too_large': {
      // The size in words the message gives ("(10 MiB)"), never the operation it names.
      const most = /\(([^()]*[KMG]iB)\)\.?$/.exec(facts.message)?.[1];
      const limit = most ? `at most ${most}` : 'the limit of this form';
      return name
        ? `${capital(name)} is too large: ${limit}. Choose a smaller one.`
        : `What you sent is too large for this form (${limit}). Choose a smaller file.`;
    }
    case 'unsupported_media_type':
    case 'invalid_json':
      return 'The form arrived in a form the service does not read. Reload the page and try again.';
    case 'internal_error':
      return 'Something went wrong on our side. Try again in a moment; if it happens again, quote the request id below to support.';
    case 'service_unavailable':
      return 'The service is busy or being maintained. Try again in a moment.';
    case 'rate_missing':
      return 'This contractor has no job role yet, so there is no hourly rate. Assign a role (Contractors, Job roles) first.';
    case 'consolidation_stale':
      return 'Something changed since this review was opened, so nothing was recorded. The review now shows the current state: check it and confirm again.';
    case 'invalid_file': {
      const words = fileWords(facts);
      if (words) return words;
      break;
    }
    default:
      break;
  }
  if (facts.field && facts.message.startsWith(`${facts.field} `)) {
    const words = validationWords(
      facts.message.slice(facts.field.length + 1),
      name ?? facts.field,
      reader.control,
    );
    if (words) return words;
  }
  return replaceFieldName(facts, name);
}

/** An operation's name in a message (`assign one with contractorOps.roles.assign`): left out. */
const OPERATION_NAME = /[a-z][A-Za-z]{2,}(\.[a-z][A-Za-z]*){1,3}/.source;

function withoutOperationNames(message: string): string {
  return message
    .replace(new RegExp(`\\s(with|using|via|through|see|call) ${OPERATION_NAME}`, 'g'), '')
    .replace(new RegExp(`\\s\\(${OPERATION_NAME}\\)`, 'g'), '');
}

/** The API's own message, its field's name (`contentBase64`, `totalMinor`) said as the label. */
function replaceFieldName(facts: RefusalFacts, name: string | undefined): string {
  if (!facts.field || !name) return withoutOperationNames(facts.message);
  // A plain word ("name", "code") is also the message's own word: only a leading one is the field.
  if (!/[A-Z.]/.test(facts.field)) {
    return withoutOperationNames(
      facts.message.startsWith(`${facts.field} `)
        ? capital(`${name}${facts.message.slice(facts.field.length)}`)
        : facts.message,
    );
  }
  const escaped = facts.field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const replaced = facts.message.replace(new RegExp(`(^|[^\\w.])${escaped}(?![\\w])`, 'g'), `$1${name}`);
  return withoutOperationNames(capital(replaced));
}

/** A title for the page that shows a refusal with no form to return to. */
export function refusalTitle(code: string, status: number): string {
  if (code === 'csrf_failed') return 'This form has expired';
  if (code === 'role_not_allowed' || code === 'dashboard_only' || code === 'insufficient_scope')
    return 'You cannot do this';
  if (status === 404) return 'Page not found';
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'Something went wrong';
  return 'That could not be done';
}
