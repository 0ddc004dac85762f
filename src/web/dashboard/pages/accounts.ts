import { type Html, html, money } from '../../html.ts';
import { table } from '../../layout.ts';
import { actionForm, field, type Row, str } from '../components.ts';
import { everyItem, type Signed } from '../context.ts';
import type { PageHandler } from '../routes.ts';

const BACK = '/dashboard/accounts';

/** Labels for the account kinds the API names (accounts.create `kind`). */
export const ACCOUNT_KINDS: ReadonlyArray<readonly [string, string]> = [
  ['checking', 'Checking (bank)'],
  ['savings', 'Savings (bank)'],
  ['credit_card', 'Credit card'],
  ['cash', 'Cash'],
  ['payment_provider', 'Payment provider (PayPal, Stripe...)'],
];
const kindLabel = (kind: unknown): string => ACCOUNT_KINDS.find(([k]) => k === kind)?.[1] ?? str(kind);

/**
 * The books' set-up: bank, card and cash accounts, and the cards on them with their holders (a
 * card's transactions reach its holder's list of missing receipts). Everything goes through the
 * catalog: accounts.list/create, cards.list/create, and admin.members.list for the holder choice.
 */
export const accountsPage: PageHandler = async (services, signed) => {
  const accounts = await everyItem(services, signed, 'accounts.list', {});
  const cards = await everyItem(services, signed, 'cards.list', {});
  const holders = await holderChoices(services, signed);
  const holderName = (id: unknown): string => holders.find(([m]) => m === id)?.[1] ?? 'another member';
  return {
    title: 'Accounts and cards',
    current: 'accounts',
    body: html`<section class="card"><h2>Accounts</h2>${table(
      ['Name', 'Kind', 'Currency', 'Number', 'Opening balance'],
      accounts.map(
        (a) =>
          html`<tr><td>${str(a.name)}</td><td>${kindLabel(a.kind)}</td><td>${str(a.currency)}</td><td>${str(a.account_ref) || '—'}</td><td class="num">${money(a.opening_balance_minor, a.currency)}</td></tr>`,
      ),
      'No account yet. Add the bank or card account your statements come from.',
    )}</section>
<section class="card"><h2>Cards</h2>${table(
      ['Card', 'Account', 'Holder', 'Brand'],
      cards.map(
        (c) =>
          html`<tr><td>${str(c.label) || 'Card'} •••• ${str(c.last_four)}</td><td>${str(accounts.find((a) => a.id === c.account_id)?.name)}</td><td>${holderName(c.holder_member_id)}</td><td>${str(c.brand) || '—'}</td></tr>`,
      ),
      'No card yet. Add a card so that its charges reach its holder’s list of missing receipts.',
    )}</section>
<div class="grid">${addAccountForm(signed)}${addCardForm(signed, accounts, holders)}</div>`,
  };
};

function addAccountForm(signed: Signed): Html {
  return html`<section class="card"><h2>Add an account</h2>${actionForm(
    signed,
    'accounts.create',
    'Add account',
    {
      back: BACK,
      fields: html`${field('name', 'Name', { id: 'account-name', required: true, hint: 'As you call it, e.g. “Business checking”.' })}
<label for="account-kind">Kind</label><select id="account-kind" name="kind">${ACCOUNT_KINDS.map(
        ([value, label]) => html`<option value="${value}">${label}</option>`,
      )}</select>
${field('currency', 'Currency', { id: 'account-currency', required: true, hint: 'Three-letter ISO code (EUR, USD, GBP...); it cannot change later.' })}
${field('accountRef', 'Account number (optional)', { id: 'account-ref', hint: 'The last four digits, or the IBAN without spaces.' })}`,
    },
  )}</section>`;
}

function addCardForm(
  signed: Signed,
  accounts: Row[],
  holders: ReadonlyArray<readonly [string, string]>,
): Html {
  if (accounts.length === 0)
    return html`<section class="card"><h2>Add a card</h2><p class="empty">Add the account the card pays from first.</p></section>`;
  return html`<section class="card"><h2>Add a card</h2>${actionForm(signed, 'cards.create', 'Add card', {
    back: BACK,
    fields: html`<label for="card-account">Account it pays from</label><select id="card-account" name="accountId">${accounts.map(
      (a) => html`<option value="${str(a.id)}">${str(a.name)} (${str(a.currency)})</option>`,
    )}</select>
<label for="card-holder">Holder</label><select id="card-holder" name="holderMemberId">${holders.map(
      ([id, name]) => html`<option value="${id}">${name}</option>`,
    )}</select>
${field('lastFour', 'Last four digits', { id: 'card-last-four', required: true, hint: 'As printed on statements, e.g. 4242.' })}
${field('brand', 'Brand (optional)', { id: 'card-brand' })}
${field('label', 'Label (optional)', { id: 'card-label', hint: 'Shown in lists, e.g. “Travel card”.' })}`,
  })}</section>`;
}

/**
 * Who may hold a card: every active member for an admin (admin.members.list); a finance member,
 * who may not list members, adds cards they hold themselves.
 */
async function holderChoices(
  services: Parameters<PageHandler>[0],
  signed: Signed,
): Promise<ReadonlyArray<readonly [string, string]>> {
  const me: readonly [string, string] = [signed.principal.memberId, `${signed.viewer.name} (me)`];
  if (signed.principal.role !== 'admin') return [me];
  const members = await everyItem(services, signed, 'admin.members.list', { status: 'active' });
  return [
    me,
    ...members
      .filter((m) => m.id !== signed.principal.memberId)
      .map((m) => [str(m.id), str(m.name) || str(m.email)] as const),
  ];
}
