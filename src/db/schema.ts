import type { ContractorTables } from './tables/contractors.ts';
import type { CoreTables } from './tables/core.ts';

/** Every table, one interface per area (src/db/tables/<area>.ts). */
export interface Database extends CoreTables, ContractorTables {}
