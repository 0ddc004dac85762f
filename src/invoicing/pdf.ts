import { parseIsoDate } from './calendar.ts';
import { type CurrencyCode, formatMoneyForDisplay, parseCurrency } from './money.ts';
import { drawInvoice } from './pdf-layout.ts';

export interface InvoicePdfLine {
  readonly description: string;
  readonly quantity: string;
  readonly unitAmountMinor: bigint;
  readonly taxRate?: string | undefined;
  /** Line total including its tax. */
  readonly totalMinor: bigint;
}

export interface InvoicePdfView {
  readonly organizationName: string;
  readonly number: string;
  readonly issueDate: string;
  readonly dueDate: string;
  readonly party: {
    readonly name: string;
    readonly email?: string | undefined;
    readonly address?: string | undefined;
  };
  readonly currency: string;
  readonly lines: readonly InvoicePdfLine[];
  readonly subtotalMinor: bigint;
  readonly taxMinor: bigint;
  readonly totalMinor: bigint;
  readonly amountPaidMinor: bigint;
  readonly balanceMinor: bigint;
  readonly notes?: string | undefined;
}

export interface RenderInvoicePdfOptions {
  /** Leave content streams uncompressed (tests and debugging); default true. */
  readonly compress?: boolean;
  /** Fixes the document's creation date so identical input gives comparable output. */
  readonly creationDate?: Date;
}

/**
 * Renders an invoice with pdfkit's built-in Helvetica (no font files to ship or download).
 * The view carries already-computed totals: the PDF shows numbers, it never recomputes them.
 */
export async function renderInvoicePdf(
  view: InvoicePdfView,
  options: RenderInvoicePdfOptions = {},
): Promise<Buffer> {
  // async so that validation failures reject like rendering failures instead of throwing.
  const currency: CurrencyCode = parseCurrency(view.currency, 'currency');
  parseIsoDate(view.issueDate, 'issueDate');
  parseIsoDate(view.dueDate, 'dueDate');
  const money = (amount: bigint) => formatMoneyForDisplay(currency, amount);
  // pdfkit loads on the first PDF, not at start (issue 16: a lean idle process).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 50,
    compress: options.compress ?? true,
    bufferPages: true,
    info: {
      Title: `Invoice ${view.number}`,
      Author: view.organizationName,
      Creator: 'accounting-service',
      ...(options.creationDate === undefined ? {} : { CreationDate: options.creationDate }),
    },
  });
  return await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      drawInvoice(doc, view, money);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}
