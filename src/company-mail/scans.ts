import { databaseScanStore, type ScanStore } from './scan-store.ts';

/** The store company mail uses; the one line to change when scans move to src/files/. */
export const mailScanStore: ScanStore = databaseScanStore;
