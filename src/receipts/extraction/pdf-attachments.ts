import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
} from 'pdf-lib';
import { assertPdfInflatesWithin, PdfInflateLimitError } from '../../files/pdf-inflate-guard.ts';
import { ExtractionFailure } from './types.ts';

// Finds the structured invoice a Factur-X/ZUGFeRD/XRechnung PDF carries as an attachment, via
// the catalog's EmbeddedFiles name tree and the PDF/A-3 /AF array. pdf-lib parses the object
// graph; the attachment's stream is inflated here with node:zlib and an output cap, because
// pdf-lib's own decoder inflates without a bound (a decompression bomb would fill memory).

const INVOICE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'zugferd_invoice.xml'];

function nameOf(spec: PDFDict): string | undefined {
  for (const key of ['UF', 'F']) {
    const value = spec.lookup(PDFName.of(key));
    if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  }
  return undefined;
}

/** Collects file specifications from a name tree node (Names pairs and Kids, bounded depth). */
function collectNameTree(node: PDFDict | undefined, out: PDFDict[], depth = 0): void {
  if (!node || depth > 10) return;
  const names = node.lookup(PDFName.of('Names'));
  if (names instanceof PDFArray) {
    for (let i = 1; i < names.size(); i += 2) {
      const spec = names.lookup(i);
      if (spec instanceof PDFDict) out.push(spec);
    }
  }
  const kids = node.lookup(PDFName.of('Kids'));
  if (kids instanceof PDFArray) {
    for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) collectNameTree(kid, out, depth + 1);
    }
  }
}

function streamBytes(stream: PDFRawStream, maxBytes: number): Buffer {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFName ? [filter] : filter instanceof PDFArray ? filter.asArray() : [];
  let data = Buffer.from(stream.getContents());
  for (const f of filters) {
    if (!(f instanceof PDFName) || f.asString() !== '/FlateDecode') {
      throw new ExtractionFailure('corrupt_file', `attachment filter ${String(f)} is not supported`);
    }
    try {
      data = inflateSync(data, { maxOutputLength: maxBytes });
    } catch (err) {
      const tooBig = err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw new ExtractionFailure(
        tooBig ? 'too_large' : 'corrupt_file',
        'embedded invoice stream does not inflate within its cap',
      );
    }
  }
  return data;
}

export interface PdfAttachment {
  name: string;
  bytes: Buffer;
}

export async function findInvoiceAttachment(
  pdf: Buffer,
  maxBytes: number,
): Promise<PdfAttachment | undefined> {
  let doc: PDFDocument;
  try {
    assertPdfInflatesWithin(pdf);
  } catch (error) {
    if (error instanceof PdfInflateLimitError) throw new ExtractionFailure('too_large', error.message);
    throw error;
  }
  try {
    doc = await PDFDocument.load(pdf, {
      updateMetadata: false,
      ignoreEncryption: true,
      throwOnInvalidObject: false,
    });
  } catch {
    return undefined; // Not readable by pdf-lib: the text layer (poppler) may still read it.
  }
  const specs: PDFDict[] = [];
  const names = doc.catalog.lookup(PDFName.of('Names'));
  if (names instanceof PDFDict) {
    const embedded = names.lookup(PDFName.of('EmbeddedFiles'));
    if (embedded instanceof PDFDict) collectNameTree(embedded, specs);
  }
  const af = doc.catalog.lookup(PDFName.of('AF'));
  if (af instanceof PDFArray) {
    for (let i = 0; i < af.size(); i++) {
      const spec = af.lookup(i);
      if (spec instanceof PDFDict) specs.push(spec);
    }
  }
  for (const spec of specs) {
    const name = nameOf(spec);
    if (!name || !INVOICE_NAMES.includes(name.toLowerCase())) continue;
    const ef = spec.lookup(PDFName.of('EF'));
    if (!(ef instanceof PDFDict)) continue;
    const ref = ef.get(PDFName.of('F')) ?? ef.get(PDFName.of('UF'));
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
    if (stream instanceof PDFRawStream) return { name, bytes: streamBytes(stream, maxBytes) };
  }
  return undefined;
}
