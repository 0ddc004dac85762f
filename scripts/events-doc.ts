// Rewrites docs/events.md from the event catalog: npx tsx scripts/events-doc.ts
import { writeFileSync } from 'node:fs';
import { EVENT_TYPES } from '../src/events/catalog.ts';
import { renderEventsDoc } from '../src/events/doc.ts';

writeFileSync(new URL('../docs/events.md', import.meta.url), renderEventsDoc(EVENT_TYPES));
