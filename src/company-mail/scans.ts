import { type ScanStore, sharedFileScanStore } from './scan-store.ts';

/** The store company mail uses (one line to change for another backend). */
export const mailScanStore: ScanStore = sharedFileScanStore;
