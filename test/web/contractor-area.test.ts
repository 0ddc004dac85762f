import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { otherOffsets } from '../../src/web/dashboard/pages/contractor-area.ts';
import { pager } from '../../src/web/layout.ts';

/** One page, several paged lists (the contractor page): each pages on its own, keeping the others. */
describe('several paged lists on one page', () => {
  it('names its own offset and navigation, and keeps the other lists where they are', () => {
    const query = { hoursOffset: '20', payoutsOffset: '40', agreementsOffset: 'x', other: '1' };
    const kept = otherOffsets(query, 'hoursOffset');
    assert.deepEqual(kept, { payoutsOffset: '40' }, 'only well-formed offsets of the other lists');
    const links = pager('/dashboard/contractors/c1', kept, 20, 20, 20, {
      key: 'hoursOffset',
      label: 'Pages of hours',
    }).text;
    assert.match(links, /aria-label="Pages of hours"/);
    assert.match(
      links,
      /href="\/dashboard\/contractors\/c1\?payoutsOffset=40&amp;hoursOffset=0">Previous page/,
    );
    assert.match(links, /href="\/dashboard\/contractors\/c1\?payoutsOffset=40&amp;hoursOffset=40">Next page/);
  });

  it('keeps the plain offset and its label by default', () => {
    assert.match(
      pager('/dashboard/x', {}, 0, 10, 10).text,
      /aria-label="Pagination"><a href="\/dashboard\/x\?offset=10">/,
    );
  });
});
