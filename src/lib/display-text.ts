/**
 * Text that came from users (mail subjects and senders, names, file names) on its way to a place
 * that interprets some characters: an operator's terminal runs escape sequences (C0 ESC, C1 CSI)
 * and reorders text at bidirectional controls; a download's file name with a right-to-left
 * override shows `invoice‮fdp.exe` as `invoiceexe.pdf`. Decision 389.
 */

// C0 controls, DEL and C1 controls; line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// Bidirectional marks, embeddings, overrides and isolates (and the Arabic letter mark).
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** For a terminal line: each control or bidi character becomes U+FFFD, so it is seen, not obeyed. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROLS, '\ufffd').replace(BIDI_CONTROLS, '\ufffd');
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 but leaves C1, the separators and bidi controls
 * raw; they are written as \uXXXX escapes here, so the output is the same JSON, inert on screen.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A download's file name without control or bidi characters (the rest of the name is kept). */
export function downloadName(name: string): string {
  const cleaned = name.replace(CONTROLS, '').replace(BIDI_CONTROLS, '').trim();
  return cleaned === '' ? 'download' : cleaned;
}
