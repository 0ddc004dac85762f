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

/** Known invoice attachment names, best first. */
const INVOICE_NAMES = ['factur-x.xml', 'xrechnung.xml', 'zugferd-invoice.xml', 'zugferd_invoice.xml'];
/** XML attachments looked at in one PDF (a PDF with hundreds is not an invoice). */
const MAX_XML_ATTACHMENTS = 8;

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

/**
 * The invoice XML files a PDF carries, best first: Factur-X/ZUGFeRD 2 (`factur-x.xml`), XRechnung,
 * then the ZUGFeRD names (2.0 and 1.0 both used `zugferd-invoice.xml`; a ZUGFeRD 1.0 document,
 * root `CrossIndustryDocument`, goes after a newer one under the same name), then any other `.xml`
 * attachment. The caller tries them in order and takes the first that reads.
 */
export async function findInvoiceAttachments(pdf: Buffer, maxBytes: number): Promise<PdfAttachment[]> {
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
    return []; // Not readable by pdf-lib: the text layer (poppler) may still read it.
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
  const found: Array<PdfAttachment & { rank: number }> = [];
  const seen = new Set<string>();
  for (const spec of specs) {
    const name = nameOf(spec);
    if (!name?.toLowerCase().endsWith('.xml') || found.length >= MAX_XML_ATTACHMENTS) continue;
    const ef = spec.lookup(PDFName.of('EF'));
    if (!(ef instanceof PDFDict)) continue;
    const ref = ef.get(PDFName.of('F')) ?? ef.get(PDFName.of('UF'));
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
    if (!(stream instanceof PDFRawStream)) continue;
    // The name tree and /AF usually list the same file twice.
    const key = ref instanceof PDFRef ? ref.toString() : name;
    if (seen.has(key)) continue;
    seen.add(key);
    const bytes = streamBytes(stream, maxBytes);
    const named = INVOICE_NAMES.indexOf(name.toLowerCase());
    const older = bytes.subarray(0, 4096).includes('CrossIndustryDocument') ? 0.5 : 0;
    found.push({ name, bytes, rank: (named < 0 ? INVOICE_NAMES.length : named) + older });
  }
  return found.sort((a, b) => a.rank - b.rank).map(({ name, bytes }) => ({ name, bytes }));
}
