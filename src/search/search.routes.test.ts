import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SearchResponse } from './answer-search.ts';
import { serializeSearchResponse } from './search.routes.ts';

const company = {
  company_name: 'Anadolu "Demir" Çelik A.Ş.',
  tax_id: '1234567890',
  country: 'TR',
  city: 'İstanbul',
  threat_level: 'high',
  report_count: 1,
  last_updated: '2026-11-27 10:00:00',
  reports: [{ report_id: 1, type: 'enforcement_plain', filed_at: '2026-11-01 09:00:00', description: 'a\nb\\c', official: true, disputed: false }],
} as unknown as SearchResponse['results'][number];

test('a 200 body is byte for byte what JSON.stringify writes, whether its results were written before or not', () => {
  const results = [company];
  const answers: SearchResponse[] = [
    {
      success: true,
      query: '1234567890',
      type: 'tax_id',
      country: 'TR',
      result_count: 1,
      results,
      meta: { queries_used_today: 3, daily_limit: 100, remaining_today: 97, response_ms: 1, truncated: false },
    },
    // The same cached results, another request's figures.
    {
      success: true,
      query: '1234567890',
      type: 'tax_id',
      country: 'TR',
      result_count: 1,
      results,
      meta: { queries_used_today: 4, daily_limit: 100, remaining_today: 96, response_ms: 0, truncated: false },
    },
    {
      success: true,
      query: 'Anadolu "Demri" \u2028',
      type: 'name',
      country: null,
      result_count: 0,
      results: [],
      meta: { response_ms: 12, truncated: true },
      near_matches: [
        { company_name: 'Anadolu Demir', tax_id: '1234567890', country: 'TR', city: 'Ankara', threat_level: 'none', report_count: 0, similarity: 0.91 },
      ],
    } as unknown as SearchResponse,
  ];
  for (const answer of answers) assert.equal(serializeSearchResponse(answer), JSON.stringify(answer));
});
