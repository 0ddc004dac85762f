import { type Html, html } from '../../html.ts';
import { pager, table } from '../../layout.ts';
import { actionForm, actionOrRole, coded, field, intParam, type Row, rows, str } from '../components.ts';
import { callOperation, everyItem, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';
import { areaNav, CADENCE_WORDS, otherOffsets, rate, rateValue } from './contractor-area.ts';

const BACK = '/dashboard/contractors/roles';
const LIMIT = 20;

/**
 * Job roles (a rate, a currency and a pay cadence contractors are paid by): list, add, change,
 * turn off; and which contractor has which role, assigned from the same page.
 */
export const contractorRolesPage: PageHandler = async (services, signed, request) => {
  const rolesOffset = intParam(request.query.rolesOffset, 0);
  const roles = rows(
    await callOperation(services, signed, 'contractorOps.roles.list', { limit: LIMIT, offset: rolesOffset }),
  );
  // The choices to assign: every active role, whichever page of the list is shown.
  const active = await everyItem(services, signed, 'contractorOps.roles.list', { active: true });
  const offset = intParam(request.query.offset, 0);
  const directory = rows(
    await callOperation(services, signed, 'contractorOps.directory.list', { limit: LIMIT, offset }),
  );
  return {
    title: 'Job roles',
    current: 'contractors',
    body: html`${areaNav('roles')}<section class="card"><h2>Roles</h2>${table(
      ['Role', 'Rate', 'Paid', 'State'],
      roles.map(
        (r) =>
          html`<tr><td>${str(r.name)}${r.description ? html`<br><span class="hint">${str(r.description)}</span>` : ''}</td><td class="num">${rate(r)}</td><td>${coded(str(r.pay_cadence), CADENCE_WORDS)}</td><td>${r.active === true ? 'Active' : 'Turned off'}</td></tr>`,
      ),
      'No job role yet. Add one below; a contractor needs a role before hours can be submitted.',
      'Job roles',
    )}${pager(BACK, otherOffsets(request.query, 'rolesOffset'), rolesOffset, LIMIT, roles.length, { key: 'rolesOffset', label: 'Pages of roles' })}${roles.map((r) => editRole(signed, r))}</section>
<section class="card"><h2>Add a role</h2>${actionOrRole(
      signed,
      'contractorOps.roles.save',
      'add a job role',
      () =>
        actionForm(signed, 'contractorOps.roles.save', 'Add role', {
          back: BACK,
          hidden: { _amounts: 'hourlyRateMinor:currency' },
          fields: roleFields('new', {}),
        }),
    )}</section>
<section class="card"><h2>Assign roles to contractors</h2>${table(
      ['Contractor', 'Current role', 'Assign'],
      directory.map(
        (c) =>
          html`<tr><td><a href="/dashboard/contractors/${str(c.id)}">${str(c.display_name)}</a></td><td>${str((c.job_role as Row | null)?.name) || '—'}</td><td>${assignForm(signed, c, active)}</td></tr>`,
      ),
      'No contractors yet. Add them in the directory.',
      'Contractors and their roles',
    )}${pager(BACK, otherOffsets(request.query, 'offset'), offset, LIMIT, directory.length, { label: 'Pages of contractors' })}</section>`,
  };
};

/** The role's fields; `key` keeps ids unique when a page holds several role forms. */
function roleFields(key: string, r: Row): Html {
  const cadence = str(r.pay_cadence) || 'monthly';
  return html`${field('name', 'Name', { id: `role-name-${key}`, required: true, value: str(r.name) || undefined })}
${field('hourlyRateMinor', 'Hourly rate', { id: `role-rate-${key}`, required: true, value: r.id ? rateValue(r) : undefined, hint: 'As you write it, e.g. 45.00 or 45,00.' })}
${field('currency', 'Currency', { id: `role-currency-${key}`, required: true, value: str(r.currency) || undefined, hint: 'Three-letter ISO code (EUR, USD, CAD...).' })}
<label for="role-cadence-${key}">Paid</label><select id="role-cadence-${key}" name="payCadence">${Object.entries(
    CADENCE_WORDS,
  ).map(
    ([value, label]) =>
      html`<option value="${value}"${value === cadence ? html` selected` : ''}>${label}</option>`,
  )}</select>
<label for="role-description-${key}">Description (optional)</label><textarea id="role-description-${key}" name="description" rows="2" maxlength="1000">${str(r.description)}</textarea><p></p>`;
}

function editRole(signed: Signed, r: Row): Html {
  return actionOrRole(signed, 'contractorOps.roles.save', 'change a job role', () => {
    const key = str(r.id);
    return html`<details class="edit"><summary>Change “${str(r.name)}”</summary>${actionForm(
      signed,
      'contractorOps.roles.save',
      'Save role',
      {
        back: BACK,
        // An emptied description clears it (forms.ts `_null`).
        hidden: {
          id: key,
          expectedRevision: Number(r.revision),
          _amounts: 'hourlyRateMinor:currency',
          _null: 'description',
        },
        fields: html`${roleFields(key, r)}<label for="role-active-${key}">Can be assigned</label><select id="role-active-${key}" name="active"><option value="true"${r.active === true ? html` selected` : ''}>Yes (active)</option><option value="false"${r.active === true ? '' : html` selected`}>No (turned off; contractors who have it keep it)</option></select><p></p>`,
      },
    )}</details>`;
  });
}

function assignForm(signed: Signed, c: Row, active: Row[]): Html {
  if (active.length === 0) return html`<span class="hint">Add a role first.</span>`;
  const currentId = str((c.job_role as Row | null)?.id);
  return actionOrRole(signed, 'contractorOps.roles.assign', 'assign a job role', () =>
    actionForm(signed, 'contractorOps.roles.assign', 'Assign', {
      back: BACK,
      inline: true,
      hidden: { contractorId: str(c.id), expectedRevision: Number(c.revision), _null: 'jobRoleId' },
      fields: html`<label for="assign-${str(c.id)}" class="visually-hidden">Role for ${str(c.display_name)}</label><select id="assign-${str(c.id)}" name="jobRoleId">${active.map(
        (r) =>
          html`<option value="${str(r.id)}"${r.id === currentId ? html` selected` : ''}>${str(r.name)}</option>`,
      )}<option value=""${currentId ? '' : html` selected`}>No role</option></select> `,
    }),
  );
}
