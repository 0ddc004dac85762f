import type { Config } from '../config.ts';
import { loadRatesFile, RatesFileError, ratesStatus } from '../receipts/rates/load.ts';
import type { Services } from '../services.ts';
import { type Options, print, required } from './options.ts';
import { UsageError } from './usage-error.ts';

export const RATES_COMMANDS = ['rates load', 'rates status'];

/** `rates load --file F` and `rates status` (docs/receipts-matching.md, "Exchange rates"). */
export async function runRatesCommand(
  services: Services,
  config: Config,
  name: string,
  options: Options,
): Promise<number> {
  if (name === 'rates load') {
    try {
      const saved = await loadRatesFile(services.db, required(options, 'file'), services.clock.now());
      print(
        options,
        saved,
        `loaded ${saved.rows} rates of ${saved.days} days (${saved.oldestDate} to ${saved.newestDate})`,
      );
      return 0;
    } catch (error) {
      // The file is the operator's to fix: its stable code and what is wrong, nothing stored.
      if (error instanceof RatesFileError) throw new UsageError(`${error.code}: ${error.message}`);
      if ((error as { code?: string }).code === 'ENOENT')
        throw new UsageError(`no such file: ${options.file}`);
      throw error;
    }
  }
  const status = await ratesStatus(services.db, config.referenceRates.url);
  const job =
    status.source === null
      ? 'job off (ACCOUNTING_REFERENCE_RATES_URL unset)'
      : `job from ${status.source}: last success ${status.lastSuccessAt ?? 'never'}, next ${status.nextDueAt ?? 'at the next poll'}` +
        (status.lastErrorCode === null
          ? ''
          : `, last failure ${status.lastErrorCode}: ${status.lastErrorMessage}`);
  print(
    options,
    status,
    `${status.rows} rates stored (${status.oldestDate ?? '-'} to ${status.newestDate ?? '-'}); ${job}`,
  );
  return 0;
}
