import * as assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, guardedList, strictestPolicy, userOnlyList } from '../../src/services/settings';

// What asks the person first is the person's to loosen: a workspace's own settings (a
// repository's .vscode/settings.json) may add to it, never take from it.
describe('settings a workspace cannot loosen', () => {
  it('a guarded list: the user\'s or the default, plus the workspace\'s patterns, never its exemptions', () => {
    const defaults = ['**/.env', '!**/.env.example'];
    assert.deepEqual(guardedList(undefined, defaults, []), defaults);
    assert.deepEqual(guardedList(undefined, defaults, [[], undefined]), defaults, 'an empty workspace list removes nothing');
    assert.deepEqual(guardedList(undefined, defaults, [['!**/.env', ' !**', '**/*.private', 42, '**/.env']]), [...defaults, '**/*.private']);
    assert.deepEqual(guardedList(['**/*.key'], defaults, [['**/*.pem']]), ['**/*.key', '**/*.pem'], 'the user\'s own list replaces the default');
    assert.deepEqual(guardedList([], defaults, [['**/*.pem'], ['**/*.crt']]), ['**/*.pem', '**/*.crt'], 'workspace and folder both add');
    assert.deepEqual(guardedList('**/*.key', defaults, ['**/*.pem']), defaults, 'what is not a list is not taken');
  });

  it('paths outside the workspace read without asking only where the user\'s own settings say', () => {
    assert.deepEqual(userOnlyList(undefined), []);
    assert.deepEqual(userOnlyList(['/usr/include/**', 7]), ['/usr/include/**']);
    assert.deepEqual(userOnlyList('/**'), []);
  });

  it('the approval policy: the user\'s, or a workspace\'s that waits more often', () => {
    assert.equal(strictestPolicy(undefined, []), DEFAULT_SETTINGS.approvalPolicy);
    assert.equal(strictestPolicy(undefined, ['never', 'sensitiveOnly']), 'always', 'the default waits for every change');
    assert.equal(strictestPolicy('never', [undefined, 'sensitiveOnly']), 'sensitiveOnly');
    assert.equal(strictestPolicy('never', ['always', 'never']), 'always');
    assert.equal(strictestPolicy('sensitiveOnly', ['never']), 'sensitiveOnly');
    assert.equal(strictestPolicy('bogus', ['nope']), 'always', 'values that are not a policy are not taken');
  });
});
