/**
 * The key ring of the tests (D35: "the tests make a ring when none is given"): one per test
 * process, shared by the app under test and the helpers that enrol operators.
 */
import { KeyRing } from '../../src/secrets/key-ring.ts';
import { KEYS_VARIABLE } from '../../src/secrets/key-ring-source.ts';

export const TEST_KEY_RING = KeyRing.generate('test');

/** The environment a child `risklookup` needs to use the same ring. */
export const TEST_KEY_RING_ENV = { [KEYS_VARIABLE]: TEST_KEY_RING.toText() };
