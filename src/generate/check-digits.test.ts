import { test } from 'node:test';
import assert from 'node:assert/strict';
import stdnumPkg from 'stdnum';
import { tcknCheckDigits, vknCheckDigit } from './check-digits.ts';

const { TR } = stdnumPkg.stdnum as unknown as Record<string, Record<string, { validate(v: string): { isValid: boolean } }>>;

test('generated VKNs and TCKNs are valid for stdnum, and only the computed digits are', () => {
  for (let i = 0; i < 2000; i++) {
    const stem = String(100_000_000 + i * 379_721)
      .slice(-9)
      .padStart(9, '0');
    const vkn = stem + vknCheckDigit(stem);
    assert.ok(TR!.vkn!.validate(vkn).isValid, vkn);
    assert.equal(TR!.vkn!.validate(stem + ((vknCheckDigit(stem) + 1) % 10)).isValid, false);
    const tStem = `${1 + (i % 9)}${stem.slice(1)}`;
    const tckn = tStem + tcknCheckDigits(tStem);
    assert.ok(TR!.tckimlik!.validate(tckn).isValid, tckn);
  }
});
