import { AppError } from '../../contract/errors.ts';

export function unsupportedCurrency(field: string): AppError {
  return new AppError('unsupported_currency', `${field} is not a supported ISO 4217 currency.`, { field });
}
