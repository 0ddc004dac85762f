const ERROR_CHARS = 500;

/** Error texts kept on a delivery or attempt are clipped to 500 characters. */
export function clip(text: string | undefined | null): string | null {
  return text === undefined || text === null || text === '' ? null : text.slice(0, ERROR_CHARS);
}
