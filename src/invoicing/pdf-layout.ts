import type { InvoicePdfView } from './pdf.ts';
import { displayQuantity, displayTaxRate, toWinAnsi } from './pdf-text.ts';

type Doc = PDFKit.PDFDocument;
type Money = (amount: bigint) => string;

const LEFT = 50;
const RIGHT = 562;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const GAP = 4;

/** Table columns; x positions add up to the 512pt text width of a Letter page with 50pt margins. */
const COLUMNS = [
  { title: 'Description', x: LEFT, width: 200, align: 'left' },
  { title: 'Qty', x: 255, width: 50, align: 'right' },
  { title: 'Unit price', x: 310, width: 95, align: 'right' },
  { title: 'Tax', x: 410, width: 45, align: 'right' },
  { title: 'Line total', x: 460, width: 102, align: 'right' },
] as const;

function bottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

/** Height of a row of cells at the current font, so wrapped descriptions push the row down. */
function rowHeight(doc: Doc, cells: readonly string[]): number {
  return Math.max(...COLUMNS.map((column, i) => doc.heightOfString(cells[i] ?? '', { width: column.width })));
}

function drawRow(doc: Doc, y: number, cells: readonly string[]): number {
  COLUMNS.forEach((column, i) => {
    doc.text(cells[i] ?? '', column.x, y, { width: column.width, align: column.align });
  });
  return y + rowHeight(doc, cells) + GAP;
}

function drawTableHeader(doc: Doc, y: number): number {
  doc.font(BOLD).fontSize(9);
  const next = drawRow(
    doc,
    y,
    COLUMNS.map((column) => column.title),
  );
  doc
    .moveTo(LEFT, next - 2)
    .lineTo(RIGHT, next - 2)
    .lineWidth(0.5)
    .stroke();
  doc.font(FONT);
  return next + GAP;
}

function drawHeading(doc: Doc, view: InvoicePdfView): number {
  doc.font(BOLD).fontSize(16).text(toWinAnsi(view.organizationName), LEFT, 50, { width: 300 });
  doc.fontSize(20).text('INVOICE', 362, 50, { width: 200, align: 'right' });
  doc.font(FONT).fontSize(10);
  const facts = `Invoice number: ${toWinAnsi(view.number)}\nIssue date: ${view.issueDate}\nDue date: ${view.dueDate}`;
  doc.text(facts, 312, 80, { width: 250, align: 'right' });
  const party = [view.party.name, view.party.email, view.party.address]
    .filter((part): part is string => part !== undefined && part !== '')
    .map((part) => toWinAnsi(part, true))
    .join('\n');
  doc.font(BOLD).text('Bill to', LEFT, 130);
  doc.font(FONT).text(party, LEFT, doc.y, { width: 300 });
  return Math.max(doc.y, 140) + 20;
}

function drawTotals(doc: Doc, view: InvoicePdfView, money: Money, top: number): number {
  const rows: [string, bigint][] = [
    ['Subtotal', view.subtotalMinor],
    ['Tax', view.taxMinor],
    ['Total', view.totalMinor],
    ['Amount paid', view.amountPaidMinor],
    ['Balance due', view.balanceMinor],
  ];
  let y = top + GAP;
  doc.fontSize(10);
  for (const [label, amount] of rows) {
    doc.font(label === 'Balance due' ? BOLD : FONT);
    doc.text(label, 330, y, { width: 110, align: 'right' });
    doc.text(money(amount), 445, y, { width: 117, align: 'right' });
    y = doc.y + GAP;
  }
  return y;
}

/** "Page i of n" on every page; drawn last, once the page count is known (bufferPages). */
function drawPageNumbers(doc: Doc, view: InvoicePdfView): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would make pdfkit add a page; lift the margin meanwhile.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const label = `Invoice ${toWinAnsi(view.number)} - page ${i - range.start + 1} of ${range.count}`;
    doc
      .font(FONT)
      .fontSize(8)
      .text(label, LEFT, doc.page.height - 35, { width: RIGHT - LEFT, align: 'center' });
    doc.page.margins.bottom = margin;
  }
}

export function drawInvoice(doc: Doc, view: InvoicePdfView, money: Money): void {
  let y = drawTableHeader(doc, drawHeading(doc, view));
  doc.fontSize(9);
  for (const line of view.lines) {
    const cells = [
      toWinAnsi(line.description, true),
      displayQuantity(line.quantity),
      money(line.unitAmountMinor),
      displayTaxRate(line.taxRate),
      money(line.totalMinor),
    ];
    if (y + rowHeight(doc, cells) > bottom(doc)) {
      doc.addPage();
      y = drawTableHeader(doc, doc.page.margins.top);
      doc.fontSize(9);
    }
    y = drawRow(doc, y, cells);
  }
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  // Five total rows at 10pt need about 80pt; keep the block together on one page.
  if (y + 90 > bottom(doc)) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  y = drawTotals(doc, view, money, y);
  if (view.notes !== undefined && view.notes.trim() !== '') {
    doc
      .font(BOLD)
      .fontSize(10)
      .text('Notes', LEFT, y + 10);
    // Flowing text: pdfkit continues long notes onto new pages by itself.
    doc.font(FONT).text(toWinAnsi(view.notes, true), LEFT, doc.y, { width: RIGHT - LEFT });
  }
  drawPageNumbers(doc, view);
}
